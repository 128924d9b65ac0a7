// The service's queues, declared once: the local runtime creates them in its SQS stand-in,
// and the stack creates them on AWS. Each queue's settings are its job's (one file per job under
// shared/domain/outbox/jobs/): the visibility timeout, and a dead-letter queue after
// `maxReceiveCount`, the number of attempts the job is declared with.
import { JOBS, type TJobQueue } from '#shared/domain/outbox/jobs';

const queue = <Q extends TJobQueue, N extends string>(job: Q, name: N) => ({
  name,
  visibilityTimeoutSeconds: JOBS[job].visibilityTimeoutSeconds,
  maxReceiveCount: JOBS[job].maxAttempts,
});

export const QUEUES = {
  notifications: queue('notifications', 'notifications'),
  webhookDeliveries: queue('webhookDeliveries', 'webhook-deliveries'),
  documentJobs: queue('documentJobs', 'document-jobs'),
  bulkJobs: queue('bulkJobs', 'bulk-jobs'),
} as const;

export const queueName = (stage: string, name: string) => `esign-${stage}-${name}`;
export const deadLetterName = (stage: string, name: string) => `esign-${stage}-${name}-dlq`;
