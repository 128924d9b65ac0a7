import type { TClock, TIds } from '../../ports/system';
import type { TWebhookStore } from '../../ports/webhooks';
import { ZWebhookWriteSchema } from '../../schemas/webhook';
import { parseInput } from '../parse-input';
import { replaceHeaders } from './merge-headers';
import type { TWebhook } from './webhook';

export async function createWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  body: unknown,
): Promise<TWebhook> {
  const input = parseInput(ZWebhookWriteSchema, body);
  const now = deps.clock.now().toISOString();
  // Header ids a client sends on a new webhook name nothing yet; they are ignored.
  const headers = replaceHeaders(
    [],
    (input.extra_headers ?? []).map(({ id: _id, ...h }) => h),
    () => deps.ids.uuid(),
  );
  const webhook: TWebhook = {
    id: deps.ids.uuid(),
    accountId,
    url: input.url,
    enabled: input.enabled ?? true,
    json: input.json ?? true,
    eventTypes: input.event_types,
    extraHeaders: headers,
    created: now,
    updated: now,
    version: 1,
  };
  await deps.webhooks.save(webhook, undefined);
  return webhook;
}
