import { NotFoundError } from '../errors';
import type { TWebhookStore } from '../ports/webhooks';
import type { TWebhook } from './webhook';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Another account's webhook and a malformed id answer the same: not found. */
export async function getWebhook(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  id: string,
): Promise<TWebhook> {
  const webhook = UUID.test(id) ? await deps.webhooks.get(accountId, id.toLowerCase()) : undefined;
  if (!webhook) throw new NotFoundError('Webhook not found.');
  return webhook;
}
