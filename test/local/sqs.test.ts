import { randomUUID } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchEntryIdsNotDistinct,
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  PurgeQueueCommand,
  QueueDoesNotExist,
  QueueNameExists,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalSqs, startLocalSqs } from '#infra/local/sqs/index';
import { loadSnapshot } from '#infra/local/sqs/persistence';

const REGION = 'eu-west-1';

const clientFor = (endpoint: string): SQSClient =>
  new SQSClient({
    endpoint,
    region: REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

let sqs: LocalSqs;
let client: SQSClient;

beforeAll(async () => {
  sqs = await startLocalSqs({ port: 0 });
  client = clientFor(sqs.endpoint);
});

afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});

const uniqueName = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

async function createQueue(label: string, attributes?: Record<string, string>, on = client): Promise<string> {
  const { QueueUrl } = await on.send(
    new CreateQueueCommand({ QueueName: uniqueName(label), Attributes: attributes }),
  );
  return QueueUrl!;
}

async function queueAttributes(queueUrl: string, on = client): Promise<Record<string, string>> {
  const { Attributes } = await on.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
  );
  return Attributes ?? {};
}

async function receive(
  queueUrl: string,
  options: { wait?: number; visibilityTimeout?: number; max?: number } = {},
) {
  const { Messages } = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: options.max ?? 1,
      WaitTimeSeconds: options.wait ?? 0,
      VisibilityTimeout: options.visibilityTimeout,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }),
  );
  return Messages ?? [];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('local SQS stand-in driven by @aws-sdk/client-sqs', () => {
  it('creates queues idempotently with AWS-shaped URLs and ARNs', async () => {
    const name = uniqueName('create');
    const created = await client.send(
      new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '7' } }),
    );
    expect(created.QueueUrl).toBe(`${sqs.endpoint}/000000000000/${name}`);

    const again = await client.send(
      new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '7' } }),
    );
    expect(again.QueueUrl).toBe(created.QueueUrl);
    await expect(
      client.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '8' } })),
    ).rejects.toBeInstanceOf(QueueNameExists);

    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: name }));
    expect(QueueUrl).toBe(created.QueueUrl);
    const attributes = await queueAttributes(QueueUrl!);
    expect(attributes.QueueArn).toBe(`arn:aws:sqs:${REGION}:000000000000:${name}`);
    expect(attributes.VisibilityTimeout).toBe('7');

    const { QueueUrls } = await client.send(new ListQueuesCommand({ QueueNamePrefix: name }));
    expect(QueueUrls).toEqual([created.QueueUrl]);
  });

  it('sends, receives and deletes a message with body checksums', async () => {
    const queueUrl = await createQueue('basic');
    const body = 'héllo wörld 🌍 {"json":true}';
    const sent = await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    expect(sent.MessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.MD5OfMessageBody).toMatch(/^[0-9a-f]{32}$/);

    const [message] = await receive(queueUrl);
    expect(message).toBeDefined();
    expect(message!.MessageId).toBe(sent.MessageId);
    expect(message!.Body).toBe(body);
    expect(message!.MD5OfBody).toBe(sent.MD5OfMessageBody);
    expect(message!.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(Number(message!.Attributes?.SentTimestamp)).toBeGreaterThan(0);
    expect(message!.Attributes?.ApproximateFirstReceiveTimestamp).toBeDefined();
    expect(message!.Attributes?.SenderId).toBe('local');

    expect(await receive(queueUrl)).toEqual([]);
    await client.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle }),
    );
    const attributes = await queueAttributes(queueUrl);
    expect(attributes.ApproximateNumberOfMessages).toBe('0');
    expect(attributes.ApproximateNumberOfMessagesNotVisible).toBe('0');
  });

  it('round-trips message attributes with AWS-compatible MD5OfMessageAttributes', async () => {
    const queueUrl = await createQueue('attrs');
    const binary = new Uint8Array([0, 1, 2, 250, 255]);
    const sent = await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: 'with attributes',
        MessageAttributes: {
          'order.id': { DataType: 'String', StringValue: 'ord_123' },
          'order.total': { DataType: 'Number', StringValue: '42.5' },
          blob: { DataType: 'Binary', BinaryValue: binary },
          label: { DataType: 'String.custom', StringValue: 'ünïcode' },
        },
      }),
    );
    expect(sent.MD5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);

    const [message] = await receive(queueUrl, { visibilityTimeout: 0 });
    expect(message!.MessageAttributes?.['order.id']).toMatchObject({
      DataType: 'String',
      StringValue: 'ord_123',
    });
    expect(message!.MessageAttributes?.['order.total']).toMatchObject({
      DataType: 'Number',
      StringValue: '42.5',
    });
    expect(message!.MessageAttributes?.label).toMatchObject({
      DataType: 'String.custom',
      StringValue: 'ünïcode',
    });
    expect(message!.MessageAttributes?.blob?.DataType).toBe('Binary');
    expect(Array.from(message!.MessageAttributes?.blob?.BinaryValue ?? [])).toEqual(Array.from(binary));
    expect(message!.MD5OfMessageAttributes).toBe(sent.MD5OfMessageAttributes);

    const { Messages } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MessageAttributeNames: ['order.*'] }),
    );
    expect(Object.keys(Messages?.[0]?.MessageAttributes ?? {}).sort()).toEqual(['order.id', 'order.total']);
  });

  it('computes MD5OfMessageAttributes exactly as AWS does (published reference digests)', async () => {
    const queueUrl = await createQueue('md5');
    const single = await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: 'a',
        MessageAttributes: { SellerName: { DataType: 'String', StringValue: 'Example Store' } },
      }),
    );
    expect(single.MD5OfMessageAttributes).toBe('cd28f3b68aeee4b2eac9c66f2f694b58');
    const mixed = await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: 'b',
        MessageAttributes: {
          ordinal: { DataType: 'Number', StringValue: '1' },
          category: { DataType: 'String', StringValue: 'test' },
        },
      }),
    );
    expect(mixed.MD5OfMessageAttributes).toBe('d21ae90c49061e927f57df5f5d72be1f');

    // On receive the digest covers the attributes actually returned.
    const { Messages } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['SellerName'],
      }),
    );
    const received = Messages?.find((message) => message.Body === 'a');
    expect(received?.MD5OfMessageAttributes).toBe('cd28f3b68aeee4b2eac9c66f2f694b58');
  });

  it('sends and deletes in batches, reporting per-entry failures', async () => {
    const queueUrl = await createQueue('batch');
    const sent = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: 'a', MessageBody: 'one' },
          {
            Id: 'b',
            MessageBody: 'two',
            MessageAttributes: { kind: { DataType: 'String', StringValue: 'x' } },
          },
          { Id: 'c', MessageBody: 'three' },
          { Id: 'bad', MessageBody: 'nul \u0000 is not allowed' },
        ],
      }),
    );
    expect(sent.Successful?.map((entry) => entry.Id).sort()).toEqual(['a', 'b', 'c']);
    expect(sent.Successful?.find((entry) => entry.Id === 'b')?.MD5OfMessageAttributes).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect(sent.Failed).toEqual([
      expect.objectContaining({ Id: 'bad', SenderFault: true, Code: 'InvalidMessageContents' }),
    ]);

    await expect(
      client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: [
            { Id: 'same', MessageBody: '1' },
            { Id: 'same', MessageBody: '2' },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(BatchEntryIdsNotDistinct);

    const messages = await receive(queueUrl, { max: 10 });
    expect(messages.map((message) => message.Body).sort()).toEqual(['one', 'three', 'two']);

    const deleted = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          ...messages.map((message, index) => ({ Id: `m${index}`, ReceiptHandle: message.ReceiptHandle! })),
          { Id: 'garbage', ReceiptHandle: 'not a receipt handle' },
        ],
      }),
    );
    expect(deleted.Successful).toHaveLength(3);
    expect(deleted.Failed).toEqual([
      expect.objectContaining({ Id: 'garbage', Code: 'ReceiptHandleIsInvalid' }),
    ]);
    const attributes = await queueAttributes(queueUrl);
    expect(attributes.ApproximateNumberOfMessages).toBe('0');
    expect(attributes.ApproximateNumberOfMessagesNotVisible).toBe('0');
  });

  it('redelivers after the visibility timeout with an incremented receive count and a new receipt handle', async () => {
    const queueUrl = await createQueue('visibility', { VisibilityTimeout: '1' });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'again' }));

    const [first] = await receive(queueUrl);
    expect(first!.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(await receive(queueUrl)).toEqual([]);
    expect((await queueAttributes(queueUrl)).ApproximateNumberOfMessagesNotVisible).toBe('1');

    const [second] = await receive(queueUrl, { wait: 5 });
    expect(second!.MessageId).toBe(first!.MessageId);
    expect(second!.Attributes?.ApproximateReceiveCount).toBe('2');
    expect(second!.Attributes?.ApproximateFirstReceiveTimestamp).toBe(
      first!.Attributes?.ApproximateFirstReceiveTimestamp,
    );
    expect(second!.ReceiptHandle).not.toBe(first!.ReceiptHandle);
  });

  it('changes visibility, singly and in batches', async () => {
    const queueUrl = await createQueue('change-visibility', { VisibilityTimeout: '30' });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'peek' }));
    const [first] = await receive(queueUrl);
    expect(await receive(queueUrl)).toEqual([]);

    await client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: first!.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    const [second] = await receive(queueUrl);
    expect(second!.MessageId).toBe(first!.MessageId);
    expect(second!.Attributes?.ApproximateReceiveCount).toBe('2');

    const result = await client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: 'current', ReceiptHandle: second!.ReceiptHandle!, VisibilityTimeout: 0 },
          { Id: 'stale', ReceiptHandle: first!.ReceiptHandle!, VisibilityTimeout: 0 },
        ],
      }),
    );
    expect(result.Successful).toEqual([{ Id: 'current' }]);
    expect(result.Failed).toEqual([expect.objectContaining({ Id: 'stale', SenderFault: true })]);
    const [third] = await receive(queueUrl);
    expect(third!.Attributes?.ApproximateReceiveCount).toBe('3');
  });

  it('hides delayed messages until they are due', async () => {
    const queueUrl = await createQueue('delay');
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'later', DelaySeconds: 1 }));
    expect(await receive(queueUrl)).toEqual([]);
    const attributes = await queueAttributes(queueUrl);
    expect(attributes.ApproximateNumberOfMessagesDelayed).toBe('1');
    expect(attributes.ApproximateNumberOfMessages).toBe('0');

    const [message] = await receive(queueUrl, { wait: 5 });
    expect(message!.Body).toBe('later');
    expect(message!.Attributes?.ApproximateReceiveCount).toBe('1');
  });

  // The 10 s test timeout is only a liveness guard: a poll that ignored the new message would wait the full 20 s.
  it('returns a long poll as soon as a message arrives mid-wait', { timeout: 10_000 }, async () => {
    const queueUrl = await createQueue('long-poll');
    const polling = receive(queueUrl, { wait: 20 });
    await sleep(300);
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'arrived' }));
    const [message] = await polling;
    expect(message!.Body).toBe('arrived');
  });

  it('does not hand messages to a long poll whose client has gone away', async () => {
    const queueUrl = await createQueue('abandoned');
    const abort = new AbortController();
    const abandoned = client
      .send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 20 }), {
        abortSignal: abort.signal,
      })
      .catch((error: unknown) => error);
    await sleep(300);
    abort.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    await sleep(200);

    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'for the next poll' }));
    const [message] = await receive(queueUrl);
    expect(message!.Body).toBe('for the next poll');
    expect(message!.Attributes?.ApproximateReceiveCount).toBe('1');
  });

  it('moves a message to the dead-letter queue once maxReceiveCount is exceeded', async () => {
    const dlqUrl = await createQueue('dlq');
    const dlqArn = (await queueAttributes(dlqUrl)).QueueArn!;
    const queueUrl = await createQueue('with-dlq', {
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: '2' }),
    });
    expect(JSON.parse((await queueAttributes(queueUrl)).RedrivePolicy!)).toEqual({
      deadLetterTargetArn: dlqArn,
      maxReceiveCount: 2,
    });

    const sent = await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'poison' }));
    expect((await receive(queueUrl, { visibilityTimeout: 0 }))[0]?.Attributes?.ApproximateReceiveCount).toBe(
      '1',
    );
    expect((await receive(queueUrl, { visibilityTimeout: 0 }))[0]?.Attributes?.ApproximateReceiveCount).toBe(
      '2',
    );
    expect(await receive(queueUrl, { visibilityTimeout: 0 })).toEqual([]);

    const [dead] = await receive(dlqUrl);
    expect(dead!.MessageId).toBe(sent.MessageId);
    expect(dead!.Body).toBe('poison');
    expect((await queueAttributes(queueUrl)).ApproximateNumberOfMessages).toBe('0');
  });

  it('ignores a stale receipt handle for a message redelivered since', async () => {
    const queueUrl = await createQueue('stale', { VisibilityTimeout: '1' });
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'twice' }));
    const [first] = await receive(queueUrl);
    const [second] = await receive(queueUrl, { wait: 5 });
    expect(second!.MessageId).toBe(first!.MessageId);

    // SQS documents this as succeeding without deleting the message.
    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: first!.ReceiptHandle }));
    expect((await queueAttributes(queueUrl)).ApproximateNumberOfMessagesNotVisible).toBe('1');
    await expect(
      client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: first!.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });

    await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: second!.ReceiptHandle }));
    const attributes = await queueAttributes(queueUrl);
    expect(attributes.ApproximateNumberOfMessagesNotVisible).toBe('0');
    expect(attributes.ApproximateNumberOfMessages).toBe('0');
  });

  it('maps a nonexistent queue to the SDK QueueDoesNotExist error', async () => {
    const missing = `${sqs.endpoint}/000000000000/${uniqueName('missing')}`;
    await expect(
      client.send(new GetQueueUrlCommand({ QueueName: uniqueName('missing') })),
    ).rejects.toBeInstanceOf(QueueDoesNotExist);
    const error = await client
      .send(new SendMessageCommand({ QueueUrl: missing, MessageBody: 'x' }))
      .catch((e) => e);
    expect(error).toBeInstanceOf(QueueDoesNotExist);
    expect(error).toMatchObject({
      name: 'QueueDoesNotExist',
      Code: 'AWS.SimpleQueueService.NonExistentQueue',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('sets attributes, purges and deletes queues', async () => {
    const queueUrl = await createQueue('lifecycle');
    await client.send(
      new SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: { VisibilityTimeout: '5' } }),
    );
    expect((await queueAttributes(queueUrl)).VisibilityTimeout).toBe('5');
    await expect(
      client.send(
        new SetQueueAttributesCommand({
          QueueUrl: queueUrl,
          Attributes: { ApproximateNumberOfMessages: '1' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidAttributeName' });

    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'gone soon' }));
    await client.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
    expect(await receive(queueUrl)).toEqual([]);

    await client.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    await expect(client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl }))).rejects.toBeInstanceOf(
      QueueDoesNotExist,
    );
  });
});

describe('local SQS lifecycle', () => {
  it('keeps queues and messages across a restart with dataFile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-sqs-'));
    const dataFile = join(dir, 'nested', 'sqs.json');
    try {
      const first = await startLocalSqs({ port: 0, dataFile });
      const firstClient = clientFor(first.endpoint);
      const dlqUrl = await createQueue('persist-dlq', undefined, firstClient);
      const dlqArn = (await queueAttributes(dlqUrl, firstClient)).QueueArn!;
      const name = uniqueName('persist');
      const { QueueUrl } = await firstClient.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: {
            VisibilityTimeout: '60',
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 3 }),
          },
        }),
      );
      await firstClient.send(new SendMessageCommand({ QueueUrl, MessageBody: 'in flight' }));
      const { Messages } = await firstClient.send(new ReceiveMessageCommand({ QueueUrl }));
      expect(Messages?.[0]?.Body).toBe('in flight');
      await firstClient.send(
        new SendMessageCommand({
          QueueUrl,
          MessageBody: 'waiting',
          MessageAttributes: { tenant: { DataType: 'String', StringValue: 't1' } },
        }),
      );
      // On disk before any stop() flush: each change was answered only once written.
      await access(dataFile);
      firstClient.destroy();
      await first.stop();
      await access(dataFile);

      const second = await startLocalSqs({ port: 0, dataFile });
      const secondClient = clientFor(second.endpoint);
      try {
        const restored = await secondClient.send(new GetQueueUrlCommand({ QueueName: name }));
        expect(restored.QueueUrl).toBe(`${second.endpoint}/000000000000/${name}`);
        const attributes = await queueAttributes(restored.QueueUrl!, secondClient);
        expect(attributes.VisibilityTimeout).toBe('60');
        expect(JSON.parse(attributes.RedrivePolicy!)).toEqual({
          deadLetterTargetArn: dlqArn,
          maxReceiveCount: 3,
        });
        expect(attributes.ApproximateNumberOfMessages).toBe('1');
        expect(attributes.ApproximateNumberOfMessagesNotVisible).toBe('1');

        const received = await secondClient.send(
          new ReceiveMessageCommand({
            QueueUrl: restored.QueueUrl,
            MaxNumberOfMessages: 10,
            MessageAttributeNames: ['All'],
          }),
        );
        expect(received.Messages?.map((message) => message.Body)).toEqual(['waiting']);
        expect(received.Messages?.[0]?.MessageAttributes?.tenant?.StringValue).toBe('t1');
      } finally {
        secondClient.destroy();
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers sends and deletes only once they are on disk, many concurrent sends too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-sqs-'));
    const dataFile = join(dir, 'sqs.json');
    const server = await startLocalSqs({ port: 0, dataFile });
    const local = clientFor(server.endpoint);
    // What a process killed right now would find on restart.
    const onDisk = async () => {
      const saved = await loadSnapshot(dataFile);
      return new Set(saved?.queues.flatMap((queue) => queue.messages.map((message) => message.body)));
    };
    try {
      const queueUrl = await createQueue('durable', undefined, local);
      await local.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'one' }));
      expect(await onDisk()).toEqual(new Set(['one']));

      const bodies = Array.from({ length: 200 }, (_, i) => `m${i}`);
      await Promise.all(
        bodies.map((body) => local.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))),
      );
      await local.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: [
            { Id: 'a', MessageBody: 'batch a' },
            { Id: 'b', MessageBody: 'batch b' },
          ],
        }),
      );
      expect(await onDisk()).toEqual(new Set(['one', ...bodies, 'batch a', 'batch b']));

      const { Messages } = await local.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }));
      await local.send(
        new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: Messages![0]!.ReceiptHandle! }),
      );
      expect((await onDisk()).has(Messages![0]!.Body!)).toBe(false);
    } finally {
      local.destroy();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Liveness guard again: without prompt cancellation the poll would hold stop() for 20 s.
  it('ends waiting long polls promptly when stopped', { timeout: 10_000 }, async () => {
    const server = await startLocalSqs({ port: 0 });
    const local = clientFor(server.endpoint);
    try {
      const queueUrl = await createQueue('stop', undefined, local);
      const polling = local.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 20 }));
      await sleep(300);
      await server.stop();
      const result = await polling;
      expect(result.Messages).toBeUndefined();
    } finally {
      local.destroy();
      await server.stop();
    }
  });
});
