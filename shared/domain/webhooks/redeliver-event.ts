import { ConflictError } from '../errors';
import type { TWebhookJob } from '../outbox/jobs/webhook-deliveries';
import type { TQueue } from '../ports/queue';
import type { TWebhookEventStore, TWebhookStore } from '../ports/webhooks';
import type { TWebhookEvent } from './webhook-event';
import { getWebhookEvent } from './webhook-log';

/**
 * Queues a fresh attempt of a logged event now, whatever became of the earlier ones (a success
 * included: the receiver may have lost it). The job gets the whole retry schedule of its own.
 * A webhook that is switched off would drop it, so that is refused rather than silently ignored.
 */
export async function redeliverEvent(
  deps: { webhookEvents: TWebhookEventStore; webhooks: TWebhookStore; queue: TQueue },
  accountId: string,
  id: string,
): Promise<TWebhookEvent> {
  const event = await getWebhookEvent(deps, accountId, id);
  const webhook = await deps.webhooks.get(accountId, event.webhookId);
  if (!webhook) throw new ConflictError('The webhook of this event has been deleted.');
  if (!webhook.enabled) throw new ConflictError('The webhook of this event is disabled; enable it first.');
  const job: TWebhookJob = { accountId, eventId: event.id, redeliver: true };
  await deps.queue.send('webhookDeliveries', { ...job });
  if (!event.queued) await deps.webhookEvents.markQueued(event);
  return { ...event, queued: true };
}
