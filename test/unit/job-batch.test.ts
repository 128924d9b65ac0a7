// The queue workers' shell: each record is read as its queue's job, and a message that is not one
// is dropped with a log line; each job decides whether its record goes; a batch that fails whole
// is answered, not thrown; one at a time when asked; and batches handed to one worker at the same
// moment (as the local runtime does) keep their own outcomes.
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { jobBatch } from '#shared/composition/job-batch';
import type { TBulkJob } from '#shared/domain/outbox/jobs/bulk-jobs';
import type { TLogger } from '#shared/logger';

/** A record whose body is a bulk chunk job named `id` (its batch id), received `receives` times. */
const record = (id: string, receives = 1, body?: string): SQSRecord =>
  ({
    messageId: id,
    receiptHandle: id,
    body: body ?? JSON.stringify({ accountId: 'acct', batchId: id, chunk: 0 } satisfies TBulkJob),
    attributes: { ApproximateReceiveCount: String(receives) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;
const batch = (...ids: string[]): SQSEvent => ({ Records: ids.map((id) => record(id)) });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures = (r: { batchItemFailures: { itemIdentifier: string }[] }) =>
  r.batchItemFailures.map((f) => f.itemIdentifier).sort();

/** A logger that keeps its error lines. */
function errorLog() {
  const errors: { message: string; data?: Record<string, unknown> }[] = [];
  const log = {
    error: (message: string, data?: Record<string, unknown>) =>
      errors.push({ message, ...(data ? { data } : {}) }),
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
    child: () => log,
  } as unknown as TLogger;
  return { log, errors };
}

describe('the job batch', () => {
  it('keeps the records whose job is not done or threw, and answers a batch that failed whole', async () => {
    const run = jobBatch({
      queue: 'bulkJobs',
      inParallel: true,
      log: errorLog().log,
      handle: async (job) => {
        if (job.batchId === 'boom') throw new Error('a fault of ours');
        return job.batchId.startsWith('ok');
      },
    });
    expect(failures(await run(batch('ok-1', 'later', 'boom', 'ok-2')))).toEqual(['boom', 'later']);
    expect(failures(await run(batch('later', 'boom')))).toEqual(['boom', 'later']);
    expect(failures(await run(batch('ok-1')))).toEqual([]);
  });

  it('hands each job its attempt, counted by the queue’s receives', async () => {
    const seen: number[] = [];
    const run = jobBatch({
      queue: 'bulkJobs',
      inParallel: false,
      log: errorLog().log,
      handle: async (_job, attempt) => {
        seen.push(attempt);
        return true;
      },
    });
    await run({ Records: [record('a', 1), record('b', 3)] });
    expect(seen).toEqual([1, 3]);
  });

  it('drops a message that is not its queue’s job, with a log line, and runs the rest', async () => {
    const { log, errors } = errorLog();
    const handled: string[] = [];
    const run = jobBatch({
      queue: 'bulkJobs',
      inParallel: true,
      log,
      handle: async (job) => {
        handled.push(job.batchId);
        return true;
      },
    });
    const answer = await run({
      Records: [
        record('not-json', 1, '{'),
        record('a-webhook-job', 1, JSON.stringify({ accountId: 'acct', eventId: 'e1' })),
        record('ok'),
      ],
    });
    expect(failures(answer)).toEqual([]);
    expect(handled).toEqual(['ok']);
    expect(errors.map((e) => e.data?.messageId).sort()).toEqual(['a-webhook-job', 'not-json']);
    expect(errors.every((e) => e.message === 'job ignored: unreadable message')).toBe(true);
  });

  it('runs one job at a time when asked', async () => {
    let running = 0;
    let most = 0;
    const run = jobBatch({
      queue: 'bulkJobs',
      inParallel: false,
      log: errorLog().log,
      handle: async () => {
        most = Math.max(most, ++running);
        await pause(5);
        running--;
        return true;
      },
    });
    await run(batch('a', 'b', 'c'));
    expect(most).toBe(1);
  });

  it('keeps each batch’s outcomes apart when one worker runs several batches at once', async () => {
    const run = jobBatch({
      queue: 'bulkJobs',
      inParallel: true,
      log: errorLog().log,
      handle: async (job) => {
        await pause(Number(job.batchId.split('-')[1]));
        return job.batchId.startsWith('ok');
      },
    });
    const [first, second] = await Promise.all([
      run(batch('ok-10', 'no-1', 'ok-3')),
      run(batch('no-2', 'ok-8', 'no-12')),
    ]);
    expect(failures(first!)).toEqual(['no-1']);
    expect(failures(second!)).toEqual(['no-12', 'no-2']);
  });
});
