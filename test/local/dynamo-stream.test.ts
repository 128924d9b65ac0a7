// The local table's stream (infra/local/dynamo-stream.ts) and the mapping that feeds a function
// from it as Lambda's would (infra/local/stream-mapping.ts): records of every kind of write, in
// the order written, the filter the stack declares, and failed records given again from the
// first that failed.
import {
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_REGION } from '#infra/local/layout';
import { matchesFilter, startStreamMapping } from '#infra/local/stream-mapping';
import { STREAM_CONSUMERS } from '#infra/workers';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { startLocalTable, type TLocalTable } from '../helpers/local-table';

const TableName = 'stream-test';
let table: TLocalTable;
let doc: DynamoDBDocumentClient;
const records: DynamoDBRecord[] = [];

beforeAll(async () => {
  table = await startLocalTable(TableName);
  doc = table.doc;
  const arn = `arn:aws:dynamodb:${LOCAL_REGION}:000000000000:table/${TableName}/stream/t`;
  table.dynamo.stream(TableName, arn, LOCAL_REGION).subscribe((r) => records.push(r));
});
afterAll(() => table?.stop());

const seen = (from: number) =>
  records.slice(from).map((r) => [r.eventName, r.dynamodb?.Keys?.sk?.S, r.dynamodb?.NewImage?.n?.N]);

describe('the local table stream', () => {
  it('gives every write of an item, alone, in a batch or in a transaction, in the order written', async () => {
    const from = records.length;
    const item = (sk: string, n: number) => ({ pk: 'S', sk, n });
    await doc.send(new PutCommand({ TableName, Item: item('a', 1) }));
    await doc.send(new PutCommand({ TableName, Item: item('a', 2) }));
    await doc.send(
      new UpdateCommand({
        TableName,
        Key: { pk: 'S', sk: 'a' },
        UpdateExpression: 'SET n = :n',
        ExpressionAttributeValues: { ':n': 3 },
      }),
    );
    await doc.send(
      new BatchWriteCommand({ RequestItems: { [TableName]: [{ PutRequest: { Item: item('b', 1) } }] } }),
    );
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: item('b', 2) } },
          { Put: { TableName, Item: item('c', 1) } },
        ],
      }),
    );
    await doc.send(new DeleteCommand({ TableName, Key: { pk: 'S', sk: 'a' } }));
    expect(seen(from)).toEqual([
      ['INSERT', 'a', '1'],
      ['MODIFY', 'a', '2'],
      ['MODIFY', 'a', '3'],
      ['INSERT', 'b', '1'],
      ['MODIFY', 'b', '2'],
      ['INSERT', 'c', '1'],
      ['REMOVE', 'a', undefined],
    ]);
    const numbers = records.slice(from).map((r) => BigInt(r.dynamodb!.SequenceNumber!));
    expect(numbers).toEqual([...numbers].sort((x, y) => (x < y ? -1 : 1)));
    expect(records.at(-1)?.dynamodb?.StreamViewType).toBe('NEW_IMAGE');
  });

  it('gives nothing for a write that failed its condition', async () => {
    const from = records.length;
    await expect(
      doc.send(
        new PutCommand({
          TableName,
          Item: { pk: 'S', sk: 'c', n: 9 },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ).rejects.toThrow();
    expect(seen(from)).toEqual([]);
  });
});

/** A stream record of a bundle item, with its outbox's index key when it has one. */
const bundleRecord = (
  seq: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  outbox: boolean,
): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    SequenceNumber: String(seq),
    Keys: { pk: { S: 'ACCOUNT#a' }, sk: { S: 'BUNDLE#b' } },
    ...(eventName === 'REMOVE'
      ? {}
      : { NewImage: { sk: { S: 'BUNDLE#b' }, ...(outbox ? { outboxPk: { S: 'OUTBOX#3' } } : {}) } }),
  },
});

describe('the outbox relay’s filter', () => {
  it('takes written items that hold an outbox, and nothing else', () => {
    const { filter } = STREAM_CONSUMERS['outbox-relay'];
    expect(matchesFilter(filter, bundleRecord(1, 'INSERT', true))).toBe(true);
    expect(matchesFilter(filter, bundleRecord(2, 'MODIFY', true))).toBe(true);
    expect(matchesFilter(filter, bundleRecord(3, 'MODIFY', false))).toBe(false);
    expect(matchesFilter(filter, bundleRecord(4, 'REMOVE', false))).toBe(false);
  });
});

describe('the local stream mapping', () => {
  it('gives a failed record and those after it again, in order, then gives them up', async () => {
    const calls: string[][] = [];
    let failures = 0;
    const mapping = startStreamMapping({
      ...STREAM_CONSUMERS['outbox-relay'],
      batchSize: 10,
      retryAttempts: 2,
      retryPauseMs: 1,
      log: createLogger('silent'),
      handler: async (event) => {
        const seqs = event.Records.map((r) => r.dynamodb!.SequenceNumber!);
        calls.push(seqs);
        // Record 2 fails twice; record 5 every time.
        if (seqs.includes('2') && failures++ < 2) return { batchItemFailures: [{ itemIdentifier: '2' }] };
        if (seqs.includes('5')) return { batchItemFailures: [{ itemIdentifier: '5' }] };
        return { batchItemFailures: [] };
      },
    });
    for (const seq of [1, 2, 3]) mapping.push(bundleRecord(seq, 'MODIFY', true));
    mapping.push(bundleRecord(4, 'MODIFY', false)); // filtered out
    await mapping.idle();
    mapping.push(bundleRecord(5, 'INSERT', true));
    mapping.push(bundleRecord(6, 'INSERT', true));
    await mapping.idle();
    await mapping.stop();
    expect(calls).toEqual([
      ['1', '2', '3'],
      ['2', '3'],
      ['2', '3'],
      // The first attempt and two more, then given up: the sweeper publishes what they held.
      ['5', '6'],
      ['5', '6'],
      ['5', '6'],
    ]);
  });
});
