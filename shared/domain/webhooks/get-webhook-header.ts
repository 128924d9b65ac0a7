import { NotFoundError } from '../errors';
import type { TWebhookStore } from '../ports/webhooks';
import { UUID } from './get-webhook';
import type { TWebhook, TWebhookHeader } from './webhook';

/**
 * An extra header is found through its lookup item, then in its webhook. A lookup item left
 * behind by an interrupted write names a webhook without the header: not found, as for another
 * account's header or a malformed id.
 */
export async function getWebhookHeader(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  id: string,
): Promise<{ webhook: TWebhook; header: TWebhookHeader }> {
  const headerId = id.toLowerCase();
  const webhookId = UUID.test(id) ? await deps.webhooks.webhookOfHeader(accountId, headerId) : undefined;
  const webhook = webhookId ? await deps.webhooks.get(accountId, webhookId) : undefined;
  const header = webhook?.extraHeaders.find((h) => h.id === headerId);
  if (!webhook || !header) throw new NotFoundError('Extra header not found.');
  return { webhook, header };
}
