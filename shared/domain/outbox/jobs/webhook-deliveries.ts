// The webhook delivery job: one call of one webhook's receiver with one logged event, made by
// the webhook dispatcher (functions/webhook-dispatcher) through
// shared/domain/webhooks/deliver-event.ts. The publisher (publish-events.ts) and the redeliver
// operation queue it.
import * as z from 'zod';
import { DONE, defineJob, retryAfter, retryPolicy, type THandlerDeps, type TJobResult } from './job';

export const ZWebhookJob = z.object({
  accountId: z.string().min(1),
  eventId: z.string().min(1),
  /** Set by the redeliver operation: deliver even if an earlier attempt succeeded. */
  redeliver: z.literal(true).optional().catch(undefined),
});
export type TWebhookJob = z.infer<typeof ZWebhookJob>;

/** What one delivery attempt says. */
export type TDeliveryOutcome =
  /** Delivered, or nothing to do (already delivered, webhook gone or switched off). */
  | { kind: 'done' }
  /** This attempt failed; try again after `delaySeconds`. */
  | { kind: 'retry'; delaySeconds: number }
  /** The last attempt failed: the job goes to the dead-letter queue. */
  | { kind: 'gave-up' };

export interface TWebhookJobDeps extends THandlerDeps {
  /** Makes one attempt (deliverEvent). */
  deliver(job: TWebhookJob, attempt: number): Promise<TDeliveryOutcome>;
}

// After attempt 1, 2, … failed: about 4, 12, 36, 108 and 324 minutes, each three times the one
// before, about the schedule BlueInk publishes. With the first attempt that makes six attempts
// over about eight hours; the queue's dead-letter queue takes the job after the last.
const policy = retryPolicy([240, 720, 2160, 6480, 19440]);

export const webhookDeliveryJob = defineJob({
  schema: ZWebhookJob,
  ...policy,
  // The dispatcher hides a failed job until its retry is due, so a job is received once per
  // attempt. This covers a batch (every call ends within 10 s) with room for a slow start.
  visibilityTimeoutSeconds: 90,
  // Side by side: each call ends within its 10-second deadline, so no receiver holds up another.
  inParallel: true,
  async handle(deps: TWebhookJobDeps, job, attempt): Promise<TJobResult> {
    try {
      const outcome = await deps.deliver(job, attempt);
      if (outcome.kind === 'done') return DONE;
      // Visible again when the retry is due; after the last attempt at once, so that the queue's
      // redrive moves it to the dead-letter queue on its next receive.
      const delay = outcome.kind === 'retry' ? outcome.delaySeconds : 0;
      deps.log.info('webhook delivery failed', {
        eventId: job.eventId,
        attempt,
        outcome: outcome.kind,
        delay,
      });
      return retryAfter(delay);
    } catch (err) {
      // A fault of ours (the table, the secret): the job comes back after the queue's
      // visibility timeout, and the receive counts as an attempt.
      deps.log.error('webhook job failed', { eventId: job.eventId, error: (err as Error).message });
      return { done: false };
    }
  },
});
