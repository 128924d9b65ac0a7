import type { TClock } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { getWebhookHeader } from './get-webhook-header';

export async function deleteWebhookHeader(
  deps: { webhooks: TWebhookStore; clock: TClock },
  accountId: string,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const { webhook: current, header } = await getWebhookHeader(deps, accountId, id);
    await deps.webhooks.save(
      {
        ...current,
        extraHeaders: current.extraHeaders.filter((h) => h.id !== header.id),
        updated: deps.clock.now().toISOString(),
        version: current.version + 1,
      },
      current,
    );
  });
}
