// The one shell of the queue workers (notifications, webhook deliveries, document jobs, bulk
// chunks): each record is read as its queue's job (shared/domain/outbox/jobs.ts), a message that
// is not one is logged and dropped (another attempt would not make it one), and Powertools' batch
// processor runs each job and answers the batch item failures that SQS keeps for another attempt. A job says whether
// it is done; one that is not (its retry is already scheduled, by the visibility the worker set)
// or that threw counts as a failure.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { JOBS, jobOf, type TJobOf, type TJobQueue } from '#shared/domain/outbox/jobs';
import type { TJobDefinition } from '#shared/domain/outbox/jobs/job';
import type { TLogger } from '#shared/logger';

/** A job that is not done yet: its record stays on the queue for another attempt. */
class JobNotDone extends Error {
  override name = 'JobNotDone';
}

export interface TJobBatchOptions<Q extends TJobQueue> {
  /** The queue the records come from: what a record must be to be its job. */
  queue: Q;
  /**
   * One job: true when it is done (the record may go). `attempt` counts the receives (1-based),
   * as the queue's redrive policy counts them.
   */
  handle(job: TJobOf<Q>, attempt: number, record: SQSRecord): Promise<boolean>;
  /** Side by side (webhook calls, messages), or one at a time (documents, each holding PDFs in memory). */
  inParallel: boolean;
  log: TLogger;
}

export function jobBatch<Q extends TJobQueue>(opts: TJobBatchOptions<Q>) {
  const record = async (r: SQSRecord) => {
    const job = jobOf(opts.queue, r.body);
    if (!job) {
      opts.log.error('job ignored: unreadable message', { queue: opts.queue, messageId: r.messageId });
      return;
    }
    const attempt = Number(r.attributes.ApproximateReceiveCount) || 1;
    if (!(await opts.handle(job, attempt, r))) throw new JobNotDone(r.messageId);
  };
  // A processor per batch: it keeps the batch's records and outcomes while it runs, and the local
  // runtime hands one function several batches at once (Lambda gives an instance one at a time).
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, record, new BatchProcessor(EventType.SQS), {
      ...(context ? { context } : {}),
      processInParallel: opts.inParallel,
      // A batch that fails whole is answered like any other: every record kept, none lost.
      throwOnFullBatchFailure: false,
    });
}

/** What a job's handler needs (its file under shared/domain/outbox/jobs/ declares it). */
export type TJobDepsOf<Q extends TJobQueue> = Parameters<(typeof JOBS)[Q]['handle']>[0];

/**
 * A queue worker running the jobs of `queue` with their declared handler, given its deps: a job
 * not done is hidden until its retry is due (`retryLater`, the SQS visibility timeout).
 */
export function jobWorker<Q extends TJobQueue>(
  queue: Q,
  deps: TJobDepsOf<Q>,
  opts: { log: TLogger; retryLater: (record: SQSRecord, seconds: number) => Promise<void> },
) {
  const job = JOBS[queue] as unknown as TJobDefinition<z.ZodType<TJobOf<Q>>, TJobDepsOf<Q>>;
  return jobBatch({
    queue,
    inParallel: job.inParallel,
    log: opts.log,
    async handle(payload, attempt, record) {
      const result = await job.handle(deps, payload, attempt);
      if (!result.done && result.retryAfterSeconds !== undefined)
        await opts.retryLater(record, result.retryAfterSeconds);
      return result.done;
    },
  });
}
