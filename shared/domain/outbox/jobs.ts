// The jobs the outbox and the service queue, one file each under jobs/ (its shape, retry policy,
// queue settings and handler), listed here by the queue each travels on: the queue port sends
// them, the queue shell (shared/composition/job-batch.ts) reads them, and infra/queues.ts
// creates their queues with the settings declared here.
import type * as z from 'zod';
import { bulkJob } from './jobs/bulk-jobs';
import { documentJob } from './jobs/document-jobs';
import { notificationJob } from './jobs/notifications';
import { webhookDeliveryJob } from './jobs/webhook-deliveries';

export const JOBS = {
  /** Messages to people (signing requests, reminders, documents ready, declines). */
  notifications: notificationJob,
  /** Webhook deliveries. */
  webhookDeliveries: webhookDeliveryJob,
  /** Final documents and certificates, and interim files. */
  documentJobs: documentJob,
  /** Bulk send chunks. */
  bulkJobs: bulkJob,
} as const;

export type TJobQueue = keyof typeof JOBS;
export type TJobOf<Q extends TJobQueue> = z.infer<(typeof JOBS)[Q]['schema']>;

/** A queue message's body as the job it must be, or undefined when it is not one. */
export function jobOf<Q extends TJobQueue>(queue: Q, body: string): TJobOf<Q> | undefined {
  try {
    const parsed = JOBS[queue].schema.safeParse(JSON.parse(body));
    return parsed.success ? (parsed.data as TJobOf<Q>) : undefined;
  } catch {
    return undefined;
  }
}
