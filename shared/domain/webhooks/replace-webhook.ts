import { ZWebhookWriteSchema } from '#shared/schemas/webhook';
import { parseInput } from '../parse-input';
import type { TClock, TIds } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { changeWebhook } from './change-webhook';
import { replaceHeaders } from './merge-headers';
import type { TWebhook } from './webhook';

/** PUT: everything is replaced as given; defaults for what is left out, and no headers if none are listed. */
export async function replaceWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  id: string,
  body: unknown,
): Promise<TWebhook> {
  const input = parseInput(ZWebhookWriteSchema, body);
  return changeWebhook(deps, accountId, id, (current) => ({
    ...current,
    url: input.url,
    enabled: input.enabled ?? true,
    json: input.json ?? true,
    eventTypes: input.event_types,
    extraHeaders: replaceHeaders(current.extraHeaders, input.extra_headers ?? [], () => deps.ids.uuid()),
  }));
}
