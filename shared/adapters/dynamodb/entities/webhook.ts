// Keys and entities of the Webhook (extra headers included), its header lookup items and the
// account's webhook secret, declared once.
import type { TWebhook } from '#shared/domain/webhooks/webhook';
import type { TWebhookSecretRecord } from '#shared/domain/webhooks/webhook-secret';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const webhookKeys = {
  /** The webhook with its extra headers, in its account's partition. */
  item: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `WEBHOOK#${id}` }),
  /** by-list-order: newest first (queried backwards). */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#WEBHOOKS`,
  listOrder: (w: TWebhook) => ({ lpk: webhookKeys.listPartition(w.accountId), lsk: `${w.created}#${w.id}` }),
  /** Extra header id → its webhook, for `/webhooks/headers/{id}/`; in the account's partition. */
  header: (accountId: string, headerId: string) => ({
    pk: accountPartition(accountId),
    sk: `HEADER#${headerId}`,
  }),
  /** The account's webhook shared secret (sealed), one item in its partition. */
  secret: (accountId: string) => ({ pk: accountPartition(accountId), sk: 'WEBHOOK_SECRET' }),
};

/** `<created>#<id>` of the by-list-order index back to its parts. */
export function webhookRefOf(lsk: string): { created: string; id: string } {
  const cut = lsk.lastIndexOf('#');
  return { created: lsk.slice(0, cut), id: lsk.slice(cut + 1) };
}

/** Extra header id → its webhook; checked against the webhook on read. */
export const webhookHeaderEntity = defineEntity<{ accountId: string; headerId: string; webhookId: string }>({
  name: 'webhook-header',
  version: 1,
  key: (h) => webhookKeys.header(h.accountId, h.headerId),
});

export const webhookEntity = defineEntity<TWebhook>({
  name: 'webhook',
  version: 1,
  key: (w) => webhookKeys.item(w.accountId, w.id),
  indexes: { byListOrder: webhookKeys.listOrder },
  encode: (w) => ({
    id: w.id,
    accountId: w.accountId,
    url: w.url,
    enabled: w.enabled,
    json: w.json,
    eventTypes: w.eventTypes,
    extraHeaders: w.extraHeaders,
    created: w.created,
    updated: w.updated,
    ...(w.failedInARow ? { failedInARow: w.failedInARow } : {}),
    ...(w.disabledAt ? { disabledAt: w.disabledAt } : {}),
    version: w.version,
  }),
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    url: item.url as string,
    enabled: Boolean(item.enabled),
    json: Boolean(item.json),
    eventTypes: (item.eventTypes as TWebhook['eventTypes']) ?? [],
    extraHeaders: (item.extraHeaders as TWebhook['extraHeaders']) ?? [],
    created: item.created as string,
    updated: item.updated as string,
    ...(item.failedInARow ? { failedInARow: Number(item.failedInARow) } : {}),
    ...(item.disabledAt ? { disabledAt: item.disabledAt as string } : {}),
    version: item.version as number,
  }),
});

/** Only sealed secrets are stored: the plain text never reaches the table. */
export const webhookSecretEntity = defineEntity<TWebhookSecretRecord>({
  name: 'webhook-secret',
  version: 1,
  key: (r) => webhookKeys.secret(r.accountId),
  encode: (r) => ({
    accountId: r.accountId,
    current: { sealed: r.current.sealed, created: r.current.created },
    ...(r.previous
      ? {
          previous: {
            sealed: r.previous.sealed,
            created: r.previous.created,
            retiredAt: r.previous.retiredAt,
          },
        }
      : {}),
    version: r.version,
  }),
  decode: (item) => {
    const previous = item.previous as TWebhookSecretRecord['previous'];
    return {
      accountId: item.accountId as string,
      current: item.current as TWebhookSecretRecord['current'],
      ...(previous ? { previous } : {}),
      version: item.version as number,
    };
  },
});
