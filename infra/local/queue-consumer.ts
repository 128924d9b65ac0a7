// Runs an SQS-triggered Lambda handler locally the way AWS Lambda's SQS event source mapping does:
// long-poll the queue, hand each batch to the handler as an SQSEvent, delete what succeeded
// (ReportBatchItemFailures semantics), leave the rest to reappear after the visibility timeout so the
// queue's redrive policy moves poison messages to the dead-letter queue. It speaks to the queue only
// through the real @aws-sdk/client-sqs client, so the same code works against the stand-in or AWS.

import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { createLogger } from '#shared/adapters/telemetry/logger';
import type { TLogger } from '#shared/logger';

// biome-ignore lint/suspicious/noConfusingVoidType: void lets plain `async (event) => { … }` handlers fit, as with aws-lambda's SQSHandler.
export type TSqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined | void>;

export interface TQueueConsumerOptions {
  sqs: SQSClient;
  queueUrl: string;
  handler: TSqsHandler;
  /** Messages per invocation, like the event source mapping's BatchSize (default 10). */
  batchSize?: number;
  /** Invocations in flight at once (default 4): a slow batch never holds up the others. */
  concurrency?: number;
  /** Long-poll wait per ReceiveMessage in seconds (default 1, so stop() is prompt). */
  waitTimeSeconds?: number;
  log?: TLogger;
}

export interface TQueueConsumer {
  start(): void;
  /** Stops polling and waits for batches in flight to finish. */
  stop(): Promise<void>;
  readonly running: boolean;
}

// SQS hands out at most 10 messages per ReceiveMessage and deletes at most 10 per batch call. AWS allows
// larger BatchSize values only together with a batching window, which a local runtime has no use for.
const MAX_SQS_BATCH = 10;
const MAX_WAIT_SECONDS = 20;
// Client errors (stand-in stopped, queue missing) back off exponentially within these bounds: short
// enough that a restarted stand-in is picked up quickly, long enough not to spin and flood the log.
const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 3_000;
// stop() lets a pending long poll answer (so any messages it got can be released), but a server that
// never answers must not hold stop() forever: after the wait plus this grace the request is aborted.
const RECEIVE_GRACE_MS = 5_000;

/** One start()…stop() period; loops of an earlier period may still be finishing after a restart. */
interface Run {
  stopped: boolean;
  /** Cuts backoff sleeps short when stop() is called. */
  wake: AbortController;
  /** Aborts a long poll that outlives stop() by more than the grace period. */
  abortReceive: AbortController;
  loops: Set<Promise<void>>;
  /** Messages polls got after stop(): released once every loop of the run has ended (see stop()). */
  late: Message[];
}

function requireInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Lambda's event shape: lower-case keys, binary as base64, and the reserved list fields always present. */
function toLambdaAttributes(
  attributes: Record<string, MessageAttributeValue> | undefined,
): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    out[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined
        ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }
        : {}),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((item) => Buffer.from(item).toString('base64')),
      dataType: value.DataType ?? 'String',
    };
  }
  return out;
}

function toRecord(message: Message, eventSourceARN: string, awsRegion: string): SQSRecord {
  const system = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ...system,
      ApproximateReceiveCount: system.ApproximateReceiveCount ?? '',
      SentTimestamp: system.SentTimestamp ?? '',
      SenderId: system.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? '',
    },
    messageAttributes: toLambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes !== undefined
      ? { md5OfMessageAttributes: message.MD5OfMessageAttributes }
      : {}),
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion,
  };
}

/**
 * Which records to keep, following Lambda's documented rules for ReportBatchItemFailures: no response,
 * an empty response or an empty/null list is full success; a malformed list, or an identifier that is
 * empty or not a message of this batch, fails the whole batch.
 */
function failedMessageIds(
  response: unknown,
  records: SQSRecord[],
): { ok: true; failed: Set<string> } | { ok: false; reason: string } {
  if (response === undefined || response === null) return { ok: true, failed: new Set() };
  if (typeof response !== 'object') return { ok: false, reason: 'response is not an object' };
  const list = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (list === undefined || list === null) return { ok: true, failed: new Set() };
  if (!Array.isArray(list)) return { ok: false, reason: 'batchItemFailures is not a list' };
  const inBatch = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const item of list) {
    const id = (item as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !inBatch.has(id)) {
      return { ok: false, reason: `itemIdentifier ${JSON.stringify(id)} is not a message of this batch` };
    }
    failed.add(id);
  }
  return { ok: true, failed };
}

export function createQueueConsumer(options: TQueueConsumerOptions): TQueueConsumer {
  const { sqs, queueUrl, handler } = options;
  const batchSize = requireInteger('batchSize', options.batchSize ?? 10, 1, MAX_SQS_BATCH);
  const concurrency = requireInteger('concurrency', options.concurrency ?? 4, 1, 1_000);
  const waitTimeSeconds = requireInteger(
    'waitTimeSeconds',
    options.waitTimeSeconds ?? 1,
    0,
    MAX_WAIT_SECONDS,
  );
  const queueName = queueUrl.split('/').filter(Boolean).pop() ?? queueUrl;
  const log = (options.log ?? createLogger()).child({ component: 'queue-consumer', queue: queueName });

  let current: Run | undefined;
  // Every loop of every run, so stop() also waits for loops of an earlier run still finishing a batch.
  const allLoops = new Set<Promise<void>>();

  // The event source mapping knows its queue's ARN; fetched once, and again only if fetching failed.
  let source: Promise<{ arn: string; region: string }> | undefined;
  const eventSource = (): Promise<{ arn: string; region: string }> => {
    source ??= (async () => {
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
      );
      const arn = Attributes?.QueueArn;
      if (!arn) throw new Error(`GetQueueAttributes returned no QueueArn for ${queueUrl}`);
      // arn:aws:sqs:<region>:<account>:<name>; the client's own region only if the ARN is odd.
      const region = arn.split(':')[3] || (await sqs.config.region());
      return { arn, region };
    })().catch((error: unknown) => {
      source = undefined;
      throw error;
    });
    return source;
  };

  /** Messages received after stop() are made visible again at once, so a restart need not wait them out. */
  async function release(messages: Message[]): Promise<void> {
    for (const batch of chunks(messages, MAX_SQS_BATCH)) {
      try {
        const result = await sqs.send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((message, index) => ({
              Id: String(index),
              ReceiptHandle: message.ReceiptHandle!,
              VisibilityTimeout: 0,
            })),
          }),
        );
        if (result.Failed?.length) {
          log.warn('could not release messages received after stop', { failed: result.Failed });
        }
      } catch (error) {
        // They still come back, only after their visibility timeout.
        log.warn('could not release messages received after stop', { error });
      }
    }
  }

  async function deleteMessages(records: SQSRecord[]): Promise<void> {
    for (const batch of chunks(records, MAX_SQS_BATCH)) {
      try {
        const result = await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((record, index) => ({
              Id: String(index),
              ReceiptHandle: record.receiptHandle,
            })),
          }),
        );
        if (result.Failed?.length) log.warn('some messages could not be deleted', { failed: result.Failed });
      } catch (error) {
        // As on AWS, a failed delete means the message is processed again: delivery is at least once.
        log.warn('could not delete processed messages', { error, count: batch.length });
      }
    }
  }

  /** One invocation; never throws, because a handler's failure is expressed by what is left undeleted. */
  async function invoke(messages: Message[]): Promise<void> {
    const { arn, region } = await eventSource();
    const records = messages.map((message) => toRecord(message, arn, region));
    let response: unknown;
    try {
      // Promise.resolve().then also turns a synchronous throw into a failed invocation.
      response = await Promise.resolve().then(() => handler({ Records: records }));
    } catch (error) {
      log.error('handler failed; the whole batch will be retried', {
        error,
        messageIds: records.map((record) => record.messageId),
      });
      return;
    }
    const outcome = failedMessageIds(response, records);
    if (!outcome.ok) {
      log.error('invalid batch response; the whole batch will be retried', { reason: outcome.reason });
      return;
    }
    if (outcome.failed.size > 0) {
      log.warn('handler reported failed messages; they will be retried', { messageIds: [...outcome.failed] });
    }
    const done = records.filter((record) => !outcome.failed.has(record.messageId));
    if (done.length > 0) await deleteMessages(done);
  }

  async function pollLoop(run: Run): Promise<void> {
    let failures = 0;
    while (!run.stopped) {
      try {
        // Resolved before receiving: a batch must never be taken off the queue only to fail for want of it.
        await eventSource();
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            // The stand-in also accepts the deprecated AttributeNames; this is the current spelling.
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: run.abortReceive.signal },
        );
        failures = 0;
        if (Messages.length === 0) continue;
        if (run.stopped) {
          // The poll was already waiting when stop() came; a stopped consumer must not run the handler.
          run.late.push(...Messages);
          return;
        }
        await invoke(Messages);
      } catch (error) {
        if (run.stopped) return;
        failures += 1;
        const delay = Math.min(BACKOFF_MIN_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        log.warn('SQS call failed; retrying', { error, retryInMs: delay });
        await sleep(delay, run.wake.signal);
      }
    }
  }

  return {
    get running() {
      return current !== undefined;
    },

    start() {
      if (current) return;
      const run: Run = {
        stopped: false,
        wake: new AbortController(),
        abortReceive: new AbortController(),
        loops: new Set(),
        late: [],
      };
      current = run;
      for (let i = 0; i < concurrency; i += 1) {
        const loop: Promise<void> = pollLoop(run)
          .catch((error: unknown) => log.error('poll loop ended unexpectedly', { error }))
          .finally(() => {
            run.loops.delete(loop);
            allLoops.delete(loop);
          });
        run.loops.add(loop);
        allLoops.add(loop);
      }
      log.debug('queue consumer started', { batchSize, concurrency, waitTimeSeconds });
    },

    async stop() {
      const run = current;
      current = undefined;
      if (run) {
        run.stopped = true;
        run.wake.abort();
      }
      const hung = run
        ? setTimeout(() => run.abortReceive.abort(), waitTimeSeconds * 1000 + RECEIVE_GRACE_MS)
        : undefined;
      try {
        await Promise.all([...allLoops]);
      } finally {
        clearTimeout(hung);
      }
      // Released only now: released while sibling polls still wait, the messages would go to them,
      // be released again, and so on, each time counting a receive, until the redrive policy moved
      // them to the dead-letter queue without any handler having seen them.
      if (run) {
        await release(run.late.splice(0));
        log.debug('queue consumer stopped');
      }
    },
  };
}
