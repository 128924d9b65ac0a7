import type * as z from 'zod';
import { ZWebhookWriteSchema } from '#shared/schemas/webhook';
import { createOnce } from '../create-once';
import { derivedUuid } from '../derived-ids';
import { parseInput } from '../parse-input';
import type { TClock, TIds } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { replaceHeaders } from './merge-headers';
import type { TWebhook } from './webhook';

export async function createWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  body: unknown,
  /** Under an Idempotency-Key: the webhook's id follows from the request (create-once.ts). */
  retrySeed?: string,
): Promise<TWebhook> {
  const input = parseInput(ZWebhookWriteSchema, body);
  const id = retrySeed === undefined ? undefined : derivedUuid(`webhook:${retrySeed}`);
  return createOnce(
    id,
    (webhookId) => deps.webhooks.get(accountId, webhookId),
    () => writeWebhook(deps, accountId, input, id ?? deps.ids.uuid()),
  );
}

async function writeWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  input: z.output<typeof ZWebhookWriteSchema>,
  id: string,
): Promise<TWebhook> {
  const now = deps.clock.now().toISOString();
  // Header ids a client sends on a new webhook name nothing yet; they are ignored.
  const headers = replaceHeaders(
    [],
    (input.extra_headers ?? []).map(({ id: _id, ...h }) => h),
    () => deps.ids.uuid(),
  );
  const webhook: TWebhook = {
    id,
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
