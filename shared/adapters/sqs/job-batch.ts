// The one shell of the three queue workers (notifications, webhook deliveries, document jobs):
// Powertools' batch processor runs each record's job and answers the batch item failures that
// SQS keeps for another attempt. A job says whether it is done; one that is not (its retry is
// already scheduled, by the visibility the worker set) or that threw counts as a failure.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/** A job that is not done yet: its record stays on the queue for another attempt. */
class JobNotDone extends Error {
  override name = 'JobNotDone';
}

export interface TJobBatchOptions {
  /** One record's job: true when it is done (the record may go). */
  handle(record: SQSRecord): Promise<boolean>;
  /** Side by side (webhook calls, messages), or one at a time (documents, each holding PDFs in memory). */
  inParallel: boolean;
}

export function jobBatch(opts: TJobBatchOptions) {
  const record = async (r: SQSRecord) => {
    if (!(await opts.handle(r))) throw new JobNotDone(r.messageId);
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
