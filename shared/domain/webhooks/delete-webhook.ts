import type { TWebhookStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { getWebhook } from './get-webhook';

/** The webhook goes with its extra headers. */
export async function deleteWebhook(
  deps: { webhooks: TWebhookStore },
  accountId: string,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const current = await getWebhook(deps, accountId, id);
    await deps.webhooks.delete(current);
  });
}
