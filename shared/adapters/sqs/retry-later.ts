import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { TLogger } from '#shared/logger';

/** SQS's ceiling for a message's visibility timeout (12 hours). */
const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * How the queue workers schedule a retry: the failed message stays on its queue, hidden until
 * the retry is due (0: visible at once, so that the queue's redrive takes a message whose last
 * attempt failed). Failing to schedule is logged, not thrown: the queue's own visibility
 * timeout then decides when the message comes back.
 */
export function createRetryLater(sqs: SQSClient, queueUrl: string | undefined, log: TLogger) {
  return async (record: SQSRecord, seconds: number): Promise<void> => {
    if (!queueUrl) return;
    await sqs
      .send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: record.receiptHandle,
          VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))),
        }),
      )
      .catch((err: Error) => log.warn('could not schedule the retry', { error: err.message }));
  };
}
