import { ZWebhookHeaderListQuerySchema } from '#shared/schemas/webhook';
import type { TPage, TPageOf } from '../paging';
import { parseInput } from '../parse-input';
import { type TWebhookStore, webhookMatches } from '../ports/webhooks';
import type { TWebhookHeader } from './webhook';

export interface TListedHeader {
  webhookId: string;
  header: TWebhookHeader;
}

/**
 * Headers of the account's webhooks (newest webhook first, each webhook's headers in their
 * order), of one webhook with `webhook`, of webhooks subscribed to an event type with
 * `event_type` / `event_type__in`. Returns the validated query, for the Link header.
 */
export async function listWebhookHeaders(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  query: { webhook?: string; event_type?: string; event_type__in?: string },
  page: TPage,
): Promise<TPageOf<TListedHeader> & { query: Record<string, string | undefined> }> {
  const q = parseInput(ZWebhookHeaderListQuerySchema, query);
  const webhookId = q.webhook?.toLowerCase();
  let webhooks = webhookId
    ? [await deps.webhooks.get(accountId, webhookId)].filter((w) => w !== undefined)
    : await deps.webhooks.all(accountId);
  webhooks = webhooks.filter((w) =>
    webhookMatches(w, { eventType: q.event_type, anyEventTypes: q.event_type__in }),
  );
  const headers = webhooks.flatMap((w) => w.extraHeaders.map((header) => ({ webhookId: w.id, header })));
  return {
    items: headers.slice((page.page - 1) * page.perPage, page.page * page.perPage),
    total: headers.length,
    query: { webhook: webhookId, event_type: q.event_type, event_type__in: q.event_type__in?.join(',') },
  };
}
