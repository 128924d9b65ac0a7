import { ZWebhookListQuerySchema } from '#shared/schemas/webhook';
import type { TPage, TPageOf } from '../paging';
import { parseInput } from '../parse-input';
import type { TWebhookFilter, TWebhookStore } from '../ports/webhooks';
import type { TWebhook } from './webhook';

/** Newest first; filters combine. Returns the validated query, for the Link header. */
export async function listWebhooks(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  query: { enabled?: string; event_type?: string; event_type__in?: string },
  page: TPage,
): Promise<TPageOf<TWebhook> & { query: Record<string, string | undefined> }> {
  const q = parseInput(ZWebhookListQuerySchema, query);
  const filter: TWebhookFilter = {
    enabled: q.enabled,
    eventType: q.event_type,
    anyEventTypes: q.event_type__in,
  };
  return {
    ...(await deps.webhooks.list(accountId, filter, page)),
    query: {
      enabled: q.enabled === undefined ? undefined : String(q.enabled),
      event_type: q.event_type,
      event_type__in: q.event_type__in?.join(','),
    },
  };
}
