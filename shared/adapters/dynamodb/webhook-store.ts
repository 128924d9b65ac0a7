import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sliceOf } from '#shared/domain/paging';
import {
  isEmptyWebhookFilter,
  type TWebhookSecretStore,
  type TWebhookStore,
  webhookMatches,
} from '#shared/domain/ports/webhooks';
import type { TWebhook } from '#shared/domain/webhooks/webhook';
import { batchGet, batchWrite, getItem, queryListOrder } from './batch';
import {
  webhookEntity,
  webhookHeaderEntity,
  webhookKeys,
  webhookRefOf,
  webhookSecretEntity,
} from './entities/webhook';
import { deleteVersioned, putVersioned } from './versioned';

/**
 * A webhook and its extra headers are one item, written conditionally on `version`. Header
 * lookup items (header id → webhook id) follow the webhook: every current one is put again on
 * each save, so an interrupted write is repaired by the next; a stale one is checked on read.
 * Reads are strongly consistent: a header or webhook just written is found at once.
 */
export function createWebhookStore(db: DynamoDBDocumentClient, table: string): TWebhookStore {
  /** Ids of every webhook of the account, newest first, from the keys-only index. */
  async function allIds(accountId: string): Promise<string[]> {
    const items = await queryListOrder(db, table, webhookKeys.listPartition(accountId));
    return items.map((i) => webhookRefOf(i.lsk as string).id);
  }

  const fetch = async (accountId: string, ids: string[]) =>
    (
      await batchGet(
        db,
        table,
        ids.map((id) => webhookKeys.item(accountId, id)),
        (i) => String(i.sk),
      )
    ).map(webhookEntity.fromItem);

  const all = async (accountId: string) => fetch(accountId, await allIds(accountId));

  return {
    async get(accountId, id) {
      return getItem(db, table, webhookKeys.item(accountId, id), webhookEntity.fromItem, true);
    },

    async webhookOfHeader(accountId, headerId) {
      return getItem(
        db,
        table,
        webhookKeys.header(accountId, headerId),
        (i) => webhookHeaderEntity.fromItem(i).webhookId,
        true,
      );
    },

    async save(webhook, previous) {
      await putVersioned(db, table, webhookEntity.toItem(webhook), previous);
      const ids = new Set(webhook.extraHeaders.map((h) => h.id));
      const gone = (previous?.extraHeaders ?? []).filter((h) => !ids.has(h.id));
      await batchWrite(db, table, [
        ...[...ids].map((headerId) => ({
          put: webhookHeaderEntity.toItem({ accountId: webhook.accountId, headerId, webhookId: webhook.id }),
        })),
        ...gone.map((h) => ({ delete: webhookKeys.header(webhook.accountId, h.id) })),
      ]);
    },

    async delete(webhook) {
      await deleteVersioned(db, table, webhookKeys.item(webhook.accountId, webhook.id), webhook.version);
      await batchWrite(
        db,
        table,
        webhook.extraHeaders.map((h) => ({ delete: webhookKeys.header(webhook.accountId, h.id) })),
      );
    },

    async list(accountId, filter, page) {
      // No index serves enabled or event types; an account has few webhooks, so a filtered
      // list reads them all and filters here (the total must count matches only).
      if (!isEmptyWebhookFilter(filter)) {
        const matches = (await all(accountId)).filter((w: TWebhook) => webhookMatches(w, filter));
        return { items: sliceOf(matches, page), total: matches.length };
      }
      const ids = await allIds(accountId);
      return { items: await fetch(accountId, sliceOf(ids, page)), total: ids.length };
    },

    all,
  };
}

/** The account's webhook secret: one item, created only if absent, then replaced on `version`. */
export function createWebhookSecretStore(db: DynamoDBDocumentClient, table: string): TWebhookSecretStore {
  return {
    async get(accountId) {
      return getItem(db, table, webhookKeys.secret(accountId), webhookSecretEntity.fromItem, true);
    },

    save: (record, previous) => putVersioned(db, table, webhookSecretEntity.toItem(record), previous),
  };
}
