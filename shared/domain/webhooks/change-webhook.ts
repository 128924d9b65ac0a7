import { changeVersioned } from '../change-versioned';
import type { TClock } from '../ports/system';
import type { TWebhookStore } from '../ports/webhooks';
import { getWebhook } from './get-webhook';
import { type TWebhook, withEnabled } from './webhook';

/** A change of a stored webhook (changeVersioned); enabling it again clears its failure count. */
export async function changeWebhook(
  deps: { webhooks: TWebhookStore; clock: TClock },
  accountId: string,
  id: string,
  change: (current: TWebhook) => TWebhook,
): Promise<TWebhook> {
  const { next } = await changeVersioned(deps.clock, {
    read: () => getWebhook(deps, accountId, id),
    change: (current) => withEnabled(current, change(current)),
    save: (n, c) => deps.webhooks.save(n, c),
  });
  return next;
}
