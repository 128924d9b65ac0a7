// TransactWriteItems on the local DynamoDB stand-in (infra/local/dynamo-transactions.ts), through
// the service's own document client against dynalite with the service's table, as the adapters
// will call it.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEXES } from '#shared/adapters/dynamodb/table';
import { startLocalTable, type TLocalTable } from '../helpers/local-table';

const TableName = 'esign-transactions-test';
let table: TLocalTable;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  table = await startLocalTable(TableName);
  doc = table.doc;
});
afterAll(() => table?.stop());

const get = async (pk: string, sk = 'ITEM') =>
  (await doc.send(new GetCommand({ TableName, Key: { pk, sk }, ConsistentRead: true }))).Item;
const put = (item: Record<string, unknown>) =>
  doc.send(new PutCommand({ TableName, Item: { sk: 'ITEM', ...item } }));

/** The error a send rejected with (fails the test if it resolved). */
async function rejection(send: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const outcome = await send.then(
    () => undefined,
    (err: Error & Record<string, unknown>) => err,
  );
  if (!outcome) throw new Error('the request succeeded');
  return outcome;
}

describe('TransactWriteItems on the local stand-in', () => {
  it('applies a Put, an Update, a Delete and a ConditionCheck together', async () => {
    await put({ pk: 'apply#update', n: 1 });
    await put({ pk: 'apply#delete', n: 1 });
    await put({ pk: 'apply#check', state: 'open' });
    const out = await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { pk: 'apply#put', sk: 'ITEM', n: 7 },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName,
              Key: { pk: 'apply#update', sk: 'ITEM' },
              UpdateExpression: 'SET n = n + :one, #tags = list_append(if_not_exists(#tags, :none), :tag)',
              ConditionExpression: 'n = :one',
              ExpressionAttributeNames: { '#tags': 'tags' },
              ExpressionAttributeValues: { ':one': 1, ':none': [], ':tag': ['x'] },
            },
          },
          {
            Delete: {
              TableName,
              Key: { pk: 'apply#delete', sk: 'ITEM' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            ConditionCheck: {
              TableName,
              Key: { pk: 'apply#check', sk: 'ITEM' },
              ConditionExpression: '#s = :open',
              ExpressionAttributeNames: { '#s': 'state' },
              ExpressionAttributeValues: { ':open': 'open' },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(await get('apply#put')).toEqual({ pk: 'apply#put', sk: 'ITEM', n: 7 });
    expect(await get('apply#update')).toEqual({ pk: 'apply#update', sk: 'ITEM', n: 2, tags: ['x'] });
    expect(await get('apply#delete')).toBeUndefined();
    expect(await get('apply#check')).toEqual({ pk: 'apply#check', sk: 'ITEM', state: 'open' });
    // Four actions of under 1 KB, two write units each (a transaction's price).
    expect(out.ConsumedCapacity).toEqual([
      expect.objectContaining({ TableName, CapacityUnits: 8, WriteCapacityUnits: 8 }),
    ]);
  });

  it('writes nothing when one condition fails, and says which in order', async () => {
    await put({ pk: 'cancel#a', version: 1 });
    await put({ pk: 'cancel#b', version: 5 });
    const err = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { pk: 'cancel#new', sk: 'ITEM' } } },
            {
              Update: {
                TableName,
                Key: { pk: 'cancel#a', sk: 'ITEM' },
                UpdateExpression: 'SET version = :two',
                ConditionExpression: 'version = :one',
                ExpressionAttributeValues: { ':one': 1, ':two': 2 },
              },
            },
            {
              Update: {
                TableName,
                Key: { pk: 'cancel#b', sk: 'ITEM' },
                UpdateExpression: 'SET version = :two',
                ConditionExpression: 'version = :one',
                ExpressionAttributeValues: { ':one': 1, ':two': 2 },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      ),
    );
    expect(err).toBeInstanceOf(TransactionCanceledException);
    expect(err.name).toBe('TransactionCanceledException');
    expect(err.message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ConditionalCheckFailed]',
    );
    expect(err.CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'None' },
      {
        Code: 'ConditionalCheckFailed',
        Message: 'The conditional request failed',
        // Not unmarshalled by the document client: DynamoDB's own form, as on AWS.
        Item: { pk: { S: 'cancel#b' }, sk: { S: 'ITEM' }, version: { N: '5' } },
      },
    ]);
    expect(await get('cancel#new')).toBeUndefined();
    expect(await get('cancel#a')).toEqual({ pk: 'cancel#a', sk: 'ITEM', version: 1 });
    expect(await get('cancel#b')).toEqual({ pk: 'cancel#b', sk: 'ITEM', version: 5 });
  });

  it('cancels with a ValidationError reason when an update cannot apply to the item it finds', async () => {
    await put({ pk: 'invalid#a', n: 'not a number' });
    await put({ pk: 'invalid#large', half: 'x'.repeat(250_000) });
    const err = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { pk: 'invalid#new', sk: 'ITEM' } } },
            {
              Update: {
                TableName,
                Key: { pk: 'invalid#a', sk: 'ITEM' },
                UpdateExpression: 'SET n = n + :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
            {
              // Past DynamoDB's 400 KB an item, as dynalite counts it.
              Update: {
                TableName,
                Key: { pk: 'invalid#large', sk: 'ITEM' },
                UpdateExpression: 'SET #more = :half',
                ExpressionAttributeNames: { '#more': 'more' },
                ExpressionAttributeValues: { ':half': 'x'.repeat(250_000) },
              },
            },
          ],
        }),
      ),
    );
    expect(err.CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'ValidationError', Message: 'An operand in the update expression has an incorrect data type' },
      { Code: 'ValidationError', Message: 'Item size to update has exceeded the maximum allowed size' },
    ]);
    expect(await get('invalid#new')).toBeUndefined();
  });

  it('refuses two actions on one item, and a request that is not a transaction', async () => {
    const twice = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { pk: 'twice', sk: 'ITEM' } } },
            {
              ConditionCheck: {
                TableName,
                Key: { pk: 'twice', sk: 'ITEM' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      ),
    );
    expect(twice.name).toBe('ValidationException');
    expect(twice.message).toBe('Transaction request cannot include multiple operations on one item');
    expect(await get('twice')).toBeUndefined();

    const badKey = await rejection(
      doc.send(
        new TransactWriteCommand({ TransactItems: [{ Delete: { TableName, Key: { pk: 'no sort key' } } }] }),
      ),
    );
    expect(badKey.name).toBe('ValidationException');
    expect(badKey.message).toBe('The provided key element does not match the schema');

    const tooMany = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: Array.from({ length: 101 }, (_, i) => ({
            Put: { TableName, Item: { pk: `many#${i}`, sk: 'ITEM' } },
          })),
        }),
      ),
    );
    expect(tooMany.name).toBe('ValidationException');
    expect(await get('many#0')).toBeUndefined();
  });

  it('keeps the secondary indexes: what a transaction writes is found on the index, what it moves is gone', async () => {
    const index = INDEXES.byStatus;
    const onIndex = async (statusPk: string) =>
      (
        await doc.send(
          new QueryCommand({
            TableName,
            IndexName: index.name,
            KeyConditionExpression: 'statusPk = :p',
            ExpressionAttributeValues: { ':p': statusPk },
          }),
        )
      ).Items?.map((item) => item.pk);
    await put({ pk: 'gsi#moved', statusPk: 'S#sent', statusSk: '1' });
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { pk: 'gsi#new', sk: 'ITEM', statusPk: 'S#done', statusSk: '2' } } },
          {
            Update: {
              TableName,
              Key: { pk: 'gsi#moved', sk: 'ITEM' },
              UpdateExpression: 'SET statusPk = :done',
              ExpressionAttributeValues: { ':done': 'S#done' },
            },
          },
        ],
      }),
    );
    expect((await onIndex('S#done'))?.sort()).toEqual(['gsi#moved', 'gsi#new']);
    expect(await onIndex('S#sent')).toEqual([]);
  });

  it('answers a retry of an applied transaction (same request token) without writing again', async () => {
    await put({ pk: 'token#a', version: 0 });
    const once = (ClientRequestToken: string, pk = 'token#a') =>
      doc.send(
        new TransactWriteCommand({
          ClientRequestToken,
          TransactItems: [
            {
              Update: {
                TableName,
                Key: { pk, sk: 'ITEM' },
                UpdateExpression: 'SET version = version + :one',
                ConditionExpression: 'version = :zero',
                ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
              },
            },
          ],
        }),
      );
    await once('retried-token');
    await once('retried-token');
    expect(await get('token#a')).toEqual({ pk: 'token#a', sk: 'ITEM', version: 1 });
    const changed = await rejection(once('retried-token', 'token#other'));
    expect(changed.name).toBe('IdempotentParameterMismatchException');
    expect(await rejection(once('another-token'))).toBeInstanceOf(TransactionCanceledException);
  });

  it('loses no update and shows no half transaction when transactions and single writes race', async () => {
    // Two items of one partition, so that one Query reads both at once.
    const pair = ['a', 'b'];
    await put({ pk: 'race', sk: 'a', n: 0, version: 0, touches: 0 });
    await put({ pk: 'race', sk: 'b', n: 0, version: 0 });
    let transactions = 0;
    let puts = 0;
    let running = true;
    const bump = (sk: string, version: number) => ({
      Update: {
        TableName,
        Key: { pk: 'race', sk },
        UpdateExpression: 'SET n = n + :one, version = version + :one',
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': version, ':one': 1 },
      },
    });
    // Each transaction bumps both items on the version it read; each single put rewrites the
    // first item as read plus a touch. A put landing between a transaction's check and its
    // write (or the reverse) would lose one of them. Half name the items in the other order:
    // locks taken in the order given would leave two such transactions waiting on each other.
    const transactor = async (_: unknown, k: number) => {
      const order = k % 2 ? pair : [...pair].reverse();
      for (let i = 0; i < 8; i++) {
        const read = (await get('race', 'a'))!;
        const TransactItems = order.map((sk) => bump(sk, read.version as number));
        await doc.send(new TransactWriteCommand({ TransactItems })).then(
          () => transactions++,
          (err) => expect(err).toBeInstanceOf(TransactionCanceledException),
        );
      }
    };
    const toucher = async () => {
      for (let i = 0; i < 8; i++) {
        const read = (await get('race', 'a'))!;
        const Item = { ...read, touches: (read.touches as number) + 1 };
        const ConditionExpression = 'version = :v AND touches = :t';
        const ExpressionAttributeValues = { ':v': read.version, ':t': read.touches };
        await doc
          .send(new PutCommand({ TableName, Item, ConditionExpression, ExpressionAttributeValues }))
          .then(
            () => puts++,
            (err) => expect(err.name).toBe('ConditionalCheckFailedException'),
          );
      }
    };
    // Both items as one read sees them, all along: a transaction is seen whole or not at all.
    const seen: number[][] = [];
    const reader = async () => {
      while (running) {
        const query = {
          TableName,
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': 'race' },
        };
        const { Items = [] } = await doc.send(new QueryCommand({ ...query, ConsistentRead: true }));
        seen.push(Items.map((item) => item.n as number));
      }
    };
    const reading = reader();
    await Promise.all([...Array.from({ length: 6 }, transactor), ...Array.from({ length: 3 }, toucher)]);
    running = false;
    await reading;
    expect(transactions).toBeGreaterThan(0);
    expect(puts).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter(([a, b]) => a !== b)).toEqual([]);
    expect(await get('race', 'a')).toMatchObject({ n: transactions, version: transactions, touches: puts });
    expect(await get('race', 'b')).toMatchObject({ n: transactions, version: transactions });
  });
});
