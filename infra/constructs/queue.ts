import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { deadLetterName, queueName } from '../queues';

/** A queue of infra/queues.ts with its dead-letter queue, as the local runtime creates it too. */
export function queueWithDeadLetters(
  scope: Construct,
  stage: string,
  q: { name: string; visibilityTimeoutSeconds: number; maxReceiveCount: number },
): Queue {
  const dlq = new Queue(scope, `${q.name}-dlq`, {
    queueName: deadLetterName(stage, q.name),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  return new Queue(scope, q.name, {
    queueName: queueName(stage, q.name),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(q.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: dlq, maxReceiveCount: q.maxReceiveCount },
  });
}
