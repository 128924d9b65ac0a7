// The queue workers' shell: each record's job decides whether its record goes; a batch that fails
// whole is answered, not thrown; one at a time when asked; and batches handed to one worker at
// the same moment (as the local runtime does) keep their own outcomes.
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { jobBatch } from '../../shared/adapters/sqs/job-batch';

const record = (id: string): SQSRecord =>
  ({
    messageId: id,
    receiptHandle: id,
    body: JSON.stringify({ id }),
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;
const batch = (...ids: string[]): SQSEvent => ({ Records: ids.map(record) });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures = (r: { batchItemFailures: { itemIdentifier: string }[] }) =>
  r.batchItemFailures.map((f) => f.itemIdentifier).sort();

describe('the job batch', () => {
  it('keeps the records whose job is not done or threw, and answers a batch that failed whole', async () => {
    const run = jobBatch({
      inParallel: true,
      handle: async (r) => {
        if (r.messageId === 'boom') throw new Error('a fault of ours');
        return r.messageId.startsWith('ok');
      },
    });
    expect(failures(await run(batch('ok-1', 'later', 'boom', 'ok-2')))).toEqual(['boom', 'later']);
    expect(failures(await run(batch('later', 'boom')))).toEqual(['boom', 'later']);
    expect(failures(await run(batch('ok-1')))).toEqual([]);
  });

  it('runs one job at a time when asked', async () => {
    let running = 0;
    let most = 0;
    const run = jobBatch({
      inParallel: false,
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
      inParallel: true,
      handle: async (r) => {
        await pause(Number(r.messageId.split('-')[1]));
        return r.messageId.startsWith('ok');
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
