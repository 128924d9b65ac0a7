import { ZWebhookHeaderWriteSchema } from '#shared/schemas/webhook';
import { ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TClock, TIds } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { checkHeaderCount, DEFAULT_HEADER_ORDER } from './merge-headers';
import type { TWebhook, TWebhookHeader } from './webhook';

/** The webhook a header names must be one of the account's; anything else is a field error. */
export async function webhookForHeader(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  webhookId: string,
): Promise<TWebhook> {
  const webhook = await deps.webhooks.get(accountId, webhookId.toLowerCase());
  if (!webhook) {
    throw new ValidationError('Invalid input.', [{ field: 'webhook', message: 'No webhook with this id.' }]);
  }
  return webhook;
}

/** Adds a header after the webhook's others. */
export async function createWebhookHeader(
  deps: { webhooks: TWebhookStore; clock: TClock; ids: TIds },
  accountId: string,
  body: unknown,
): Promise<{ webhook: TWebhook; header: TWebhookHeader }> {
  const input = parseInput(ZWebhookHeaderWriteSchema, body);
  const header: TWebhookHeader = {
    id: deps.ids.uuid(),
    name: input.name,
    value: input.value,
    order: input.order ?? DEFAULT_HEADER_ORDER,
  };
  return retryOnConflict(async () => {
    const current = await webhookForHeader(deps, accountId, input.webhook);
    const extraHeaders = [...current.extraHeaders, header];
    checkHeaderCount(extraHeaders, 'webhook');
    const next: TWebhook = {
      ...current,
      extraHeaders,
      updated: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    await deps.webhooks.save(next, current);
    return { webhook: next, header };
  });
}
