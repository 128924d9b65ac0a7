// The notifications job: the messages to people that one audit event causes (a signing request,
// a reminder, documents ready, a decline told to the sender), sent by the notifications worker
// (functions/notifications-worker) through shared/domain/notifications/send-notification.ts.
import * as z from 'zod';
import { NOTIFICATION_TYPES } from '../outbox-entry';
import { DONE, defineJob, retryAfter, retryDelayOf, retryPolicy, type THandlerDeps } from './job';

export const ZNotificationJob = z.object({
  type: z.enum(NOTIFICATION_TYPES),
  accountId: z.string().min(1),
  bundleId: z.string().min(1),
  packetId: z.string().min(1).optional(),
  /** The audit event's place in the bundle's history: with the bundle, what the worker de-duplicates on. */
  seq: z.number().int(),
  date: z.string().catch(''),
});
export type TNotificationJob = z.infer<typeof ZNotificationJob>;

/**
 * A console sign-in link asked for (shared/domain/console/request-sign-in-link.ts). The request
 * is answered once this is queued, the same work for every address; the worker then looks the
 * address up and mails its users, so the answer's timing cannot tell who has an account.
 */
export const ZSignInMailJob = z.object({
  type: z.literal('console_sign_in'),
  email: z.string().min(3).max(320),
  ip: z.string().max(100),
  userAgent: z.string().max(1000),
  /** When it was asked for: the links' lifetimes and the security log count from it. */
  at: z.string(),
});
export type TSignInMailJob = z.infer<typeof ZSignInMailJob>;

/** What sending a job's messages says. */
export type TNotifyOutcome =
  /** Everything the job asks for was sent (now or before), or nothing was to be sent. */
  | { kind: 'done'; sent: number; skipped?: string }
  /** Another attempt holds a fresh claim on one of the messages: look again after `seconds`. */
  | { kind: 'wait'; seconds: number };

export interface TNotificationJobDeps extends THandlerDeps {
  /** Sends the job's messages (sendNotification). */
  send(job: TNotificationJob, attempt: number): Promise<TNotifyOutcome>;
  /** Looks up a sign-in request's address and mails its users their links (mailSignInLinks). */
  signInMail(job: TSignInMailJob): Promise<void>;
}

// Attempts 2 to 5 come about 40 minutes in all after the first; then the dead-letter queue.
const policy = retryPolicy([30, 120, 600, 1800]);

export const notificationJob = defineJob({
  schema: z.union([ZNotificationJob, ZSignInMailJob]),
  ...policy,
  // The worker hides a failed job until its retry is due; this is above the worker's timeout.
  visibilityTimeoutSeconds: 60,
  // Side by side: each message is its own call to SES or SNS.
  inParallel: true,
  async handle(deps: TNotificationJobDeps, job, attempt) {
    const { log } = deps;
    if (job.type === 'console_sign_in') {
      try {
        await deps.signInMail(job);
        return DONE;
      } catch (err) {
        deps.metrics.count('NotificationFailures');
        // Neither the address nor anything secret: the job's kind and attempt alone.
        log.error('sign-in mail job failed', { type: job.type, attempt, error: (err as Error).message });
        const last = attempt >= policy.maxAttempts;
        return retryAfter(last ? 0 : retryDelayOf(policy, attempt, deps.retryScale));
      }
    }
    const about = { type: job.type, bundleId: job.bundleId, seq: job.seq, attempt };
    try {
      const outcome = await deps.send(job, attempt);
      if (outcome.kind === 'done') {
        log.info('notification job done', { ...about, sent: outcome.sent, skipped: outcome.skipped });
        return DONE;
      }
      log.info('notification job waits for another attempt', { ...about, seconds: outcome.seconds });
      return retryAfter(outcome.seconds);
    } catch (err) {
      deps.metrics.count('NotificationFailures');
      log.error('notification job failed', { ...about, error: (err as Error).message });
      // After the last attempt visible at once, so that the queue's redrive moves it to its DLQ.
      const last = attempt >= policy.maxAttempts;
      return retryAfter(last ? 0 : retryDelayOf(policy, attempt, deps.retryScale));
    }
  },
});
