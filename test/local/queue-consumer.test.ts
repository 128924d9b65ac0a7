import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueueConsumer, type TQueueConsumer, type TSqsHandler } from '#infra/local/queue-consumer';
import { type LocalSqs, startLocalSqs } from '#infra/local/sqs/index';
import { createLogger } from '#shared/adapters/telemetry/logger';

const REGION = 'us-east-1';
// Generous: these only bound how long a broken consumer may take to fail, they are not expectations.
const WAIT = { timeout: 20_000, interval: 50 };

const clientFor = (endpoint: string, maxAttempts?: number): SQSClient =>
  new SQSClient({
    endpoint,
    region: REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(maxAttempts ? { maxAttempts } : {}),
  });

let server: LocalSqs;
let client: SQSClient;
const consumers: TQueueConsumer[] = [];
const silent = createLogger('silent');

beforeAll(async () => {
  server = await startLocalSqs({ port: 0 });
  client = clientFor(server.endpoint);
});

// A failed assertion must not leave loops polling into the next test.
afterEach(async () => {
  await Promise.all(consumers.splice(0).map((consumer) => consumer.stop()));
});

afterAll(async () => {
  client?.destroy();
  await server?.stop();
});

const uniqueName = (label: string): string => `consumer-${label}-${randomUUID().slice(0, 8)}`;

async function createQueue(
  label: string,
  attributes?: Record<string, string>,
  on = client,
  name = uniqueName(label),
): Promise<string> {
  const { QueueUrl } = await on.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  return QueueUrl!;
}

async function queueAttributes(queueUrl: string): Promise<Record<string, string>> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }),
  );
  return Attributes ?? {};
}

async function expectEmpty(queueUrl: string): Promise<void> {
  const attributes = await queueAttributes(queueUrl);
  expect(attributes.ApproximateNumberOfMessages).toBe('0');
  expect(attributes.ApproximateNumberOfMessagesNotVisible).toBe('0');
}

async function sendAll(queueUrl: string, bodies: string[], on = client): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    const { Failed } = await on.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: bodies.slice(i, i + 10).map((body, index) => ({ Id: `m${i + index}`, MessageBody: body })),
      }),
    );
    expect(Failed ?? []).toEqual([]);
  }
}

function consumer(
  queueUrl: string,
  handler: TSqsHandler,
  options: { batchSize?: number; concurrency?: number; waitTimeSeconds?: number; sqs?: SQSClient } = {},
): TQueueConsumer {
  const created = createQueueConsumer({ sqs: client, queueUrl, handler, log: silent, ...options });
  consumers.push(created);
  return created;
}

/** Every record a handler saw, in order, as body and receive count. */
function recorder() {
  const seen: SQSRecord[] = [];
  const deliveries = (body: string) =>
    seen.filter((record) => record.body === body).map((record) => record.attributes.ApproximateReceiveCount);
  return { seen, deliveries };
}

describe('local SQS queue consumer', () => {
  it('hands every message to the handler once, as a Lambda SQS event, and deletes it', async () => {
    const queueUrl = await createQueue('all', { VisibilityTimeout: '30' });
    const { QueueArn } = await queueAttributes(queueUrl);
    const bodies = Array.from({ length: 25 }, (_, i) => `message ${i}`);
    await sendAll(queueUrl, bodies);
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: 'with attributes',
        MessageAttributes: {
          tenant: { DataType: 'String', StringValue: 't1' },
          blob: { DataType: 'Binary', BinaryValue: new Uint8Array([1, 2, 255]) },
        },
      }),
    );

    const events: SQSEvent[] = [];
    const { seen } = recorder();
    consumer(queueUrl, async (event) => {
      events.push(event);
      seen.push(...event.Records);
    }).start();

    await vi.waitFor(() => expect(seen).toHaveLength(26), WAIT);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
    expect(seen.map((record) => record.body).sort()).toEqual([...bodies, 'with attributes'].sort());
    for (const event of events) expect(event.Records.length).toBeLessThanOrEqual(10);

    const record = seen.find((r) => r.body === 'with attributes')!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: QueueArn,
      awsRegion: REGION,
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
      md5OfMessageAttributes: expect.stringMatching(/^[0-9a-f]{32}$/),
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      receiptHandle: expect.any(String),
      attributes: {
        ApproximateReceiveCount: '1',
        SenderId: 'local',
        SentTimestamp: expect.stringMatching(/^\d+$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
      },
      messageAttributes: {
        tenant: { dataType: 'String', stringValue: 't1', stringListValues: [], binaryListValues: [] },
        blob: {
          dataType: 'Binary',
          binaryValue: Buffer.from([1, 2, 255]).toString('base64'),
          stringListValues: [],
          binaryListValues: [],
        },
      },
    });
  });

  it('keeps the messages listed in batchItemFailures and deletes the rest', async () => {
    const queueUrl = await createQueue('partial', { VisibilityTimeout: '1' });
    await sendAll(queueUrl, ['ok-1', 'fail', 'ok-2']);
    const { seen, deliveries } = recorder();
    consumer(queueUrl, async (event): Promise<SQSBatchResponse> => {
      seen.push(...event.Records);
      return {
        batchItemFailures: event.Records.filter(
          (record) => record.body === 'fail' && record.attributes.ApproximateReceiveCount === '1',
        ).map((record) => ({ itemIdentifier: record.messageId })),
      };
    }).start();

    await vi.waitFor(() => expect(deliveries('fail')).toEqual(['1', '2']), WAIT);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
    expect(deliveries('ok-1')).toEqual(['1']);
    expect(deliveries('ok-2')).toEqual(['1']);
  });

  it('retries the whole batch when an itemIdentifier is not a message of the batch', async () => {
    const queueUrl = await createQueue('bad-id', { VisibilityTimeout: '1' });
    await sendAll(queueUrl, ['a', 'b']);
    const { seen, deliveries } = recorder();
    consumer(queueUrl, async (event) => {
      seen.push(...event.Records);
      const first = event.Records.some((record) => record.attributes.ApproximateReceiveCount === '1');
      return first ? { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] } : undefined;
    }).start();

    await vi.waitFor(() => {
      expect(deliveries('a')).toEqual(['1', '2']);
      expect(deliveries('b')).toEqual(['1', '2']);
    }, WAIT);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
  });

  it('deletes nothing when the handler throws, so the whole batch comes back', async () => {
    const queueUrl = await createQueue('throws', { VisibilityTimeout: '1' });
    await sendAll(queueUrl, ['x', 'y', 'z']);
    const { seen, deliveries } = recorder();
    consumer(queueUrl, async (event) => {
      seen.push(...event.Records);
      if (event.Records.some((record) => record.attributes.ApproximateReceiveCount === '1')) {
        throw new Error('transient failure');
      }
    }).start();

    await vi.waitFor(() => {
      for (const body of ['x', 'y', 'z']) expect(deliveries(body)).toEqual(['1', '2']);
    }, WAIT);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
  });

  it('stops polling on stop() and picks up messages sent meanwhile after start()', async () => {
    const queueUrl = await createQueue('restart', { VisibilityTimeout: '30' });
    const { seen, deliveries } = recorder();
    const running = consumer(queueUrl, async (event) => {
      seen.push(...event.Records);
    });
    running.start();
    expect(running.running).toBe(true);
    await sendAll(queueUrl, ['before']);
    await vi.waitFor(() => expect(deliveries('before')).toEqual(['1']), WAIT);

    await running.stop();
    expect(running.running).toBe(false);
    await sendAll(queueUrl, ['while stopped']);
    // Nothing polls any more, so the message simply waits in the queue.
    expect((await queueAttributes(queueUrl)).ApproximateNumberOfMessages).toBe('1');
    expect(deliveries('while stopped')).toEqual([]);

    running.start();
    await vi.waitFor(() => expect(deliveries('while stopped')).toEqual(['1']), WAIT);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
  });

  // What a poll still waiting at stop() gets is released, visible at once despite the 60 s
  // timeout, but only once every poll has ended: released while sibling polls still waited, a
  // message went to one of them, was released again, and so on, each time counting a receive,
  // until a consumer stopped a few times had its queue's messages moved to the dead-letter queue.
  it.each([
    { polls: 1, wait: 10 },
    { polls: 4, wait: 2 },
  ])(
    'with $polls poll(s) waiting at stop(), runs no handler for what they get and releases it with one receive counted',
    async ({ polls, wait }) => {
      const queueUrl = await createQueue('late-poll', { VisibilityTimeout: '60' });
      // Tells the test when the consumer's long polls are under way, without guessing with sleeps.
      const watched = clientFor(server.endpoint);
      let receivesStarted = 0;
      watched.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'ReceiveMessageCommand') receivesStarted += 1;
          return next(args);
        },
        { step: 'initialize', name: 'countReceives' },
      );
      try {
        const handler = vi.fn(async () => undefined);
        const late = consumer(queueUrl, handler, { sqs: watched, concurrency: polls, waitTimeSeconds: wait });
        late.start();
        await vi.waitFor(() => expect(receivesStarted).toBe(polls), WAIT);

        const stopping = late.stop();
        await sendAll(queueUrl, ['arrives during the last polls']);
        await stopping;

        expect(handler).not.toHaveBeenCalled();
        expect(receivesStarted).toBe(polls);
        const { Messages } = await client.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MessageSystemAttributeNames: ['All'] }),
        );
        expect(Messages?.[0]?.Body).toBe('arrives during the last polls');
        // One receive by a late poll, one by this check.
        expect(Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
      } finally {
        watched.destroy();
      }
    },
  );

  it('keeps handling other messages while one batch is stuck in the handler', async () => {
    const queueUrl = await createQueue('concurrency', { VisibilityTimeout: '30' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let slowStarted = false;
    let slowFinished = false;
    const { seen, deliveries } = recorder();
    const concurrent = consumer(
      queueUrl,
      async (event) => {
        seen.push(...event.Records);
        if (event.Records.some((record) => record.body === 'slow')) {
          slowStarted = true;
          await gate;
          slowFinished = true;
        }
      },
      { concurrency: 3 },
    );
    concurrent.start();
    await sendAll(queueUrl, ['slow']);
    await vi.waitFor(() => expect(slowStarted).toBe(true), WAIT);

    const fast = Array.from({ length: 12 }, (_, i) => `fast ${i}`);
    await sendAll(queueUrl, fast);
    await vi.waitFor(() => {
      for (const body of fast) expect(deliveries(body)).toEqual(['1']);
    }, WAIT);
    expect(slowFinished).toBe(false);

    // stop() waits for the stuck batch, and its delete, before resolving.
    const stopping = concurrent.stop();
    release();
    await stopping;
    expect(slowFinished).toBe(true);
    await expectEmpty(queueUrl);
    expect(deliveries('slow')).toEqual(['1']);
  });

  it('lets the redrive policy move a message that keeps failing to the dead-letter queue', async () => {
    const dlqUrl = await createQueue('dlq');
    const { QueueArn: dlqArn } = await queueAttributes(dlqUrl);
    const queueUrl = await createQueue('redrive', {
      VisibilityTimeout: '1',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }),
    });
    await sendAll(queueUrl, ['poison', 'good']);
    const { seen, deliveries } = recorder();
    consumer(queueUrl, async (event) => {
      seen.push(...event.Records);
      return {
        batchItemFailures: event.Records.filter((record) => record.body === 'poison').map((record) => ({
          itemIdentifier: record.messageId,
        })),
      };
    }).start();

    const dead = await vi.waitFor(async () => {
      const { Messages } = await client.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl }));
      expect(Messages).toHaveLength(1);
      return Messages![0]!;
    }, WAIT);
    expect(dead.Body).toBe('poison');
    expect(deliveries('poison')).toEqual(['1', '2']);
    expect(deliveries('good')).toEqual(['1']);
    await vi.waitFor(() => expectEmpty(queueUrl), WAIT);
  });

  it('survives the SQS endpoint going away and resumes when it is back', async () => {
    const own = await startLocalSqs({ port: 0 });
    // No SDK retries, so the consumer's own backoff is what keeps it alive.
    const ownClient = clientFor(own.endpoint, 1);
    const lines: string[] = [];
    const log = createLogger('warn', { write: (line) => lines.push(line) });
    let back: LocalSqs | undefined;
    try {
      const name = uniqueName('fault');
      const queueUrl = await createQueue('fault', undefined, ownClient, name);
      const { seen, deliveries } = recorder();
      const resilient = createQueueConsumer({
        sqs: ownClient,
        queueUrl,
        log,
        handler: async (event) => {
          seen.push(...event.Records);
        },
      });
      consumers.push(resilient);
      resilient.start();
      await sendAll(queueUrl, ['before the outage'], ownClient);
      await vi.waitFor(() => expect(deliveries('before the outage')).toEqual(['1']), WAIT);

      await own.stop();
      await vi.waitFor(() => expect(lines.some((line) => line.includes('SQS call failed'))).toBe(true), WAIT);
      expect(resilient.running).toBe(true);

      // Same port, so the same queue URL; the in-memory stand-in comes back empty.
      back = await startLocalSqs({ port: own.port });
      await createQueue('fault', undefined, ownClient, name);
      await sendAll(queueUrl, ['after the outage'], ownClient);
      await vi.waitFor(() => expect(deliveries('after the outage')).toEqual(['1']), WAIT);
      await resilient.stop();
    } finally {
      ownClient.destroy();
      await own.stop();
      await back?.stop();
    }
  });

  it('rejects batch sizes SQS cannot deliver in one receive', () => {
    const handler: TSqsHandler = async () => undefined;
    expect(() => createQueueConsumer({ sqs: client, queueUrl: 'x', handler, batchSize: 11 })).toThrow(
      RangeError,
    );
    expect(() => createQueueConsumer({ sqs: client, queueUrl: 'x', handler, concurrency: 0 })).toThrow(
      RangeError,
    );
  });
});
