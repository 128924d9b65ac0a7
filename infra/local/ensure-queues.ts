import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterName, QUEUES, queueName } from '../queues';

/** Creates every queue of queues.ts with its dead-letter queue (CreateQueue is idempotent). */
export async function ensureQueues(sqs: SQSClient, stage: string): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const [key, q] of Object.entries(QUEUES)) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: deadLetterName(stage, q.name) }));
    const dlqArn = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const main = await sqs.send(
      new CreateQueueCommand({
        QueueName: queueName(stage, q.name),
        Attributes: {
          VisibilityTimeout: String(q.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
            maxReceiveCount: q.maxReceiveCount,
          }),
        },
      }),
    );
    urls[key] = main.QueueUrl!;
  }
  return urls;
}
