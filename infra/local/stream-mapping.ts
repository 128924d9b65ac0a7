// Runs a stream-fed Lambda handler locally the way Lambda's DynamoDB Streams event source mapping
// does: the records its filter pattern matches, in stream order, in batches of at most
// `batchSize`, one batch at a time (a shard is read by one invocation at a time). With
// ReportBatchItemFailures the stream is taken up again from the first record that failed, after
// a pause, a bounded number of times; then those records are given up (the stack sends their
// description to a dead-letter queue; here it is logged), as with `maximumRetryAttempts`.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { TLogger } from '#shared/logger';
import type { TFilterPattern } from '../workers';

export type TStreamHandler = (
  event: DynamoDBStreamEvent,
  // biome-ignore lint/suspicious/noConfusingVoidType: void lets plain `async (event) => { … }` handlers fit, as with aws-lambda's DynamoDBStreamHandler.
) => Promise<DynamoDBBatchResponse | undefined | void>;

export interface TStreamMappingOptions {
  handler: TStreamHandler;
  filter: TFilterPattern;
  batchSize: number;
  log: TLogger;
  /** Attempts again after the first failed one, as the mapping's `retryAttempts`. */
  retryAttempts?: number;
  /** The pause before the first retry; doubled each time. */
  retryPauseMs?: number;
}

export interface TStreamMapping {
  /** Takes a record of the stream (those the filter does not match are dropped). */
  push(record: DynamoDBRecord): void;
  /** Resolves once every record taken so far was handled or given up. */
  idle(): Promise<void>;
  /** Takes no more records; waits for the batch in flight. */
  stop(): Promise<void>;
}

/** Whether `value` matches `pattern`: every field of the pattern, a list meaning any of its values. */
export function matchesFilter(pattern: TFilterPattern, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const fields = value as Record<string, unknown>;
  return Object.entries(pattern).every(([name, expected]) => {
    const actual = fields[name];
    if (!Array.isArray(expected)) return matchesFilter(expected as TFilterPattern, actual);
    return expected.some((e) =>
      typeof e === 'object'
        ? (actual !== undefined && typeof actual !== 'object') === e.exists
        : actual === e,
    );
  });
}

export function startStreamMapping(opts: TStreamMappingOptions): TStreamMapping {
  const retryAttempts = opts.retryAttempts ?? 3;
  const retryPauseMs = opts.retryPauseMs ?? 100;
  const pending: DynamoDBRecord[] = [];
  let stopped = false;
  let draining: Promise<void> | undefined;

  const attempt = async (batch: DynamoDBRecord[]): Promise<DynamoDBRecord[]> => {
    try {
      const answer = await opts.handler({ Records: batch });
      const failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      const first = batch.findIndex((r) => failed.has(r.dynamodb?.SequenceNumber ?? ''));
      return first < 0 ? [] : batch.slice(first);
    } catch (err) {
      opts.log.error('stream batch failed', { error: (err as Error).message });
      return batch;
    }
  };
  const deliver = async (batch: DynamoDBRecord[]) => {
    let left = batch;
    for (let retry = 0; left.length > 0; retry++) {
      if (retry > retryAttempts) {
        opts.log.error('stream records given up after every attempt', {
          records: left.length,
          first: left[0]?.dynamodb?.SequenceNumber,
        });
        return;
      }
      if (retry > 0) await new Promise((r) => setTimeout(r, retryPauseMs * 2 ** (retry - 1)));
      left = await attempt(left);
    }
  };
  const drain = async () => {
    while (pending.length > 0) await deliver(pending.splice(0, opts.batchSize));
  };
  const kick = () => {
    // A write's record arrives while its writer still holds the item's lock: the batch starts
    // on the next turn, as Lambda's poll finds it after the write.
    draining ??= new Promise<void>((r) => setImmediate(r)).then(drain).finally(() => {
      draining = undefined;
      if (pending.length > 0 && !stopped) kick();
    });
  };

  return {
    push(record) {
      if (stopped || !matchesFilter(opts.filter, record)) return;
      pending.push(record);
      kick();
    },
    async idle() {
      while (draining) await draining;
    },
    async stop() {
      stopped = true;
      pending.length = 0;
      while (draining) await draining;
    },
  };
}
