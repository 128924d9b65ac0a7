// The service's queues, declared once: the local runtime creates them in its SQS stand-in,
// and the stack creates them on AWS. Each has a dead-letter queue after `maxReceiveCount`, the
// number of attempts its jobs are declared with (shared/domain/outbox/jobs.ts).
import { JOBS } from '../shared/domain/outbox/jobs';

export const QUEUES = {
  /**
   * Messages to people (signing requests, reminders, documents ready, declines). The worker hides
   * a failed job until its retry is due; the visibility timeout is above the worker's timeout.
   */
  notifications: {
    name: 'notifications',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: JOBS.notifications.maxAttempts,
  },
  /**
   * Webhook delivery jobs. The dispatcher hides a failed job until its retry is due, so a job
   * is received once per attempt, and after the last attempt the queue moves it to its DLQ. The
   * visibility timeout covers a batch (every call ends within 10 s) with room for a slow start.
   */
  webhookDeliveries: {
    name: 'webhook-deliveries',
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: JOBS.webhookDeliveries.maxAttempts,
  },
  documentJobs: {
    name: 'document-jobs',
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: JOBS.documentJobs.maxAttempts,
  },
  /** Bulk send chunks; a chunk of 25 creates ends well within the worker's timeout. */
  bulkJobs: {
    name: 'bulk-jobs',
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: JOBS.bulkJobs.maxAttempts,
  },
} as const;

export const queueName = (stage: string, name: string) => `esign-${stage}-${name}`;
export const deadLetterName = (stage: string, name: string) => `esign-${stage}-${name}-dlq`;
