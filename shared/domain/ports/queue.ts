// Jobs for the workers.
import type { TJobOf, TJobQueue } from '../outbox/jobs';

/** A message for a worker; queues are named as in infra/queues.ts. */
/** Puts a job on its queue (jobs declared in shared/domain/outbox/jobs.ts). */
export interface TQueue {
  /** `delaySeconds` (at most 900, SQS's limit) keeps the job hidden that long. */
  send<Q extends TJobQueue>(queue: Q, job: TJobOf<Q>, options?: { delaySeconds?: number }): Promise<void>;
}
