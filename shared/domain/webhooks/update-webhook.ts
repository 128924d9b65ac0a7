import { ZWebhookPatchSchema } from '#shared/schemas/webhook';
import { parseInput } from '../parse-input';
import type { TClock, TIds } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { changeWebhook } from './change-webhook';
import { replaceHeaders } from './merge-headers';
import type { TWebhook } from './webhook';

/** PATCH: fields given replace the stored ones; `extra_headers` given replace the whole set. */
export async function updateWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  id: string,
  body: unknown,
): Promise<TWebhook> {
  const input = parseInput(ZWebhookPatchSchema, body);
  return changeWebhook(deps, accountId, id, (current) => ({
    ...current,
    url: input.url ?? current.url,
    enabled: input.enabled ?? current.enabled,
    json: input.json ?? current.json,
    eventTypes: input.event_types ?? current.eventTypes,
    extraHeaders: input.extra_headers
      ? replaceHeaders(current.extraHeaders, input.extra_headers, () => deps.ids.uuid())
      : current.extraHeaders,
  }));
}
