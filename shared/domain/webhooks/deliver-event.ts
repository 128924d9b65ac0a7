import { retryDelayOf } from '../outbox/jobs/job';
import {
  type TDeliveryOutcome,
  type TWebhookJob,
  webhookDeliveryJob,
} from '../outbox/jobs/webhook-deliveries';
import type { TMetrics } from '../ports/metrics';
import type { TClock, TIds } from '../ports/system';
import type { TWebhookCaller, TWebhookEventStore, TWebhookStore } from '../ports/webhooks';
import { retryOnConflict } from '../retry-on-conflict';
import { type TWebhook, WEBHOOK_DISABLE_AFTER } from './webhook';
import { buildWebhookCall } from './webhook-call';
import type { TWebhookDelivery } from './webhook-event';
import { signingSecrets, type TSecretDeps } from './webhook-secret';

/** The delivery job's retry schedule and attempts (outbox/jobs/webhook-deliveries.ts). */
export const RETRY_DELAYS_SECONDS = webhookDeliveryJob.retryDelaysSeconds;
export const MAX_ATTEMPTS = webhookDeliveryJob.maxAttempts;

export type TDeliverDeps = TSecretDeps & {
  webhooks: TWebhookStore;
  webhookEvents: TWebhookEventStore;
  caller: TWebhookCaller;
  ids: TIds;
  clock: TClock;
  /** Multiplies RETRY_DELAYS_SECONDS (config.webhookRetryScale); 1 in production. */
  retryScale?: number;
  /** Each call's outcome and latency (WebhookDeliveries, WebhookLatency); none in tests that do not ask. */
  metrics?: TMetrics;
};

/**
 * One attempt of a delivery job. `attempt` is how many times the queue has handed this job out
 * (1 for the first), which drives the retry schedule. A job may be handed out twice (queues are
 * at-least-once): the receiver tells duplicates by `event_id`.
 */
export async function deliverEvent(
  deps: TDeliverDeps,
  job: TWebhookJob,
  attempt: number,
): Promise<TDeliveryOutcome> {
  const event = await deps.webhookEvents.get(job.accountId, job.eventId);
  if (!event) return { kind: 'done' };
  if (event.success && !job.redeliver) return { kind: 'done' };
  const webhook = await deps.webhooks.get(job.accountId, event.webhookId);
  // Switched off (by the sender, or by the service for failing) or deleted since it was queued.
  if (!webhook?.enabled) return { kind: 'done' };

  const started = deps.clock.now();
  const secrets = await signingSecrets(deps, job.accountId, started);
  const call = buildWebhookCall(event, webhook, secrets, Math.floor(started.getTime() / 1000));
  const result = await deps.caller.post(webhook.url, call.headers, call.body);
  deps.metrics?.count('WebhookDeliveries', { outcome: result.ok ? 'delivered' : 'failed' });
  deps.metrics?.duration('WebhookLatency', deps.clock.now().getTime() - started.getTime());
  const delivery: TWebhookDelivery = {
    id: deps.ids.uuid(),
    accountId: job.accountId,
    eventId: event.id,
    webhookId: webhook.id,
    eventType: event.type,
    timestamp: started.toISOString(),
    status: result.status,
    success: result.ok,
    message: result.message,
    payload: event.payload,
    eventCreated: event.created,
  };
  await deps.webhookEvents.recordDelivery(delivery);

  if (result.ok) {
    await recordOutcome(deps, webhook, true);
    return { kind: 'done' };
  }
  if (attempt < MAX_ATTEMPTS) {
    const delay = retryDelayOf(webhookDeliveryJob, Math.max(1, attempt), deps.retryScale);
    return { kind: 'retry', delaySeconds: Math.round(delay) };
  }
  await recordOutcome(deps, webhook, false);
  return { kind: 'gave-up' };
}

/**
 * Counts events that failed every attempt, in a row; a success starts the count over. At
 * WEBHOOK_DISABLE_AFTER the service disables the webhook (noting when, so its events are still
 * logged). Written on the webhook's version, so a sender's edit at the same moment is not lost.
 * A failure is written on the webhook as read before the call (a write that lost a race reads it
 * again). A success reads it afresh: another delivery may have given up during the call, and its
 * count must be forgotten too.
 */
async function recordOutcome(deps: TDeliverDeps, known: TWebhook, succeeded: boolean): Promise<void> {
  let fresh: TWebhook | undefined = succeeded ? undefined : known;
  await retryOnConflict(async () => {
    const current = fresh ?? (await deps.webhooks.get(known.accountId, known.id));
    fresh = undefined;
    if (!current) return;
    if (succeeded && !current.failedInARow) return;
    const failed = succeeded ? 0 : (current.failedInARow ?? 0) + 1;
    const disable = !succeeded && failed >= WEBHOOK_DISABLE_AFTER && current.enabled;
    const now = deps.clock.now().toISOString();
    await deps.webhooks.save(
      {
        ...current,
        failedInARow: failed,
        ...(disable ? { enabled: false, disabledAt: now, updated: now } : {}),
        version: current.version + 1,
      },
      current,
    );
  });
}
