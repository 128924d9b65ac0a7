import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { TQueue } from '#shared/domain/ports/queue';

export function createSqsQueue(sqs: SQSClient, urls: Record<string, string>): TQueue {
  return {
    async send(queue, message, options) {
      const url = urls[queue];
      if (!url) throw new Error(`No URL configured for queue "${queue}"`);
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: JSON.stringify(message),
          ...(options?.delaySeconds ? { DelaySeconds: Math.min(900, Math.ceil(options.delaySeconds)) } : {}),
        }),
      );
    },
  };
}
