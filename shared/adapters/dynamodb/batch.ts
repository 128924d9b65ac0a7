import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  type GetCommandOutput,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { INDEXES } from './table';

type TKey = Record<string, string>;
type TItem = Record<string, unknown>;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GetItem, the item mapped to what the store answers; undefined when there is none. */
export async function getItem<T>(
  db: DynamoDBDocumentClient,
  table: string,
  key: TKey,
  map: (item: NonNullable<GetCommandOutput['Item']>) => T,
  consistentRead = false,
): Promise<T | undefined> {
  const out = await db.send(
    new GetCommand({ TableName: table, Key: key, ...(consistentRead ? { ConsistentRead: true } : {}) }),
  );
  return out.Item ? map(out.Item) : undefined;
}

/** BatchGetItem in chunks of 100, re-asking for unprocessed keys; results keep the keys' order. */
export async function batchGet(
  db: DynamoDBDocumentClient,
  table: string,
  keys: TKey[],
  keyOf: (item: TItem) => string,
): Promise<TItem[]> {
  const found = new Map<string, TItem>();
  for (let i = 0; i < keys.length; i += 100) {
    let pending: TKey[] = keys.slice(i, i + 100);
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await pause(Math.min(1000, 25 * 2 ** round));
      const out = await db.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[table] ?? []) found.set(keyOf(item), item);
      pending = (out.UnprocessedKeys?.[table]?.Keys as TKey[] | undefined) ?? [];
    }
  }
  return keys.map((k) => found.get(keyOf(k))).filter((x): x is TItem => x !== undefined);
}

export type TWrite = { put: TItem } | { delete: TKey };

/** BatchWriteItem in chunks of 25, re-sending unprocessed items. Each write must be idempotent. */
export async function batchWrite(db: DynamoDBDocumentClient, table: string, writes: TWrite[]): Promise<void> {
  for (let i = 0; i < writes.length; i += 25) {
    let pending = writes
      .slice(i, i + 25)
      .map((w) => ('put' in w ? { PutRequest: { Item: w.put } } : { DeleteRequest: { Key: w.delete } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await pause(Math.min(1000, 25 * 2 ** round));
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] as typeof pending | undefined) ?? [];
    }
  }
}

/** The keys of one by-list-order partition, newest first unless told otherwise. */
export function queryListOrder(
  db: DynamoDBDocumentClient,
  table: string,
  lpk: string,
  order: 'newest-first' | 'oldest-first' = 'newest-first',
): Promise<TItem[]> {
  return queryAll(db, {
    TableName: table,
    IndexName: INDEXES.byListOrder.name,
    KeyConditionExpression: 'lpk = :lpk',
    ExpressionAttributeValues: { ':lpk': lpk },
    ScanIndexForward: order === 'oldest-first',
  });
}

/** The items of one by-list-order partition in its order: its keys from the index, then BatchGet. */
export async function listedItems(
  db: DynamoDBDocumentClient,
  table: string,
  lpk: string,
  order: 'newest-first' | 'oldest-first' = 'newest-first',
): Promise<TItem[]> {
  const refs = await queryListOrder(db, table, lpk, order);
  return batchGet(
    db,
    table,
    refs.map((r) => ({ pk: r.pk as string, sk: r.sk as string })),
    (i) => `${i.pk}\n${i.sk}`,
  );
}

/** Every page of a Query. Callers keep the result small: key-only indexes or lookup items. */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<TItem[]> {
  const items: TItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items as TItem[] | undefined) ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * A write refused because its condition did not hold: a single write's, or a transaction's whose
 * cancellation reasons name a failed condition (a transaction cancelled for any other reason, a
 * conflict with another transaction among them, is the SDK's to retry or the caller's error).
 */
export function isConditionFailure(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | undefined;
  if (e?.name === 'ConditionalCheckFailedException') return true;
  return (
    e?.name === 'TransactionCanceledException' &&
    (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')
  );
}

/** A conditional write: true when it was made, false when its condition did not hold. */
export async function writeIf(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
