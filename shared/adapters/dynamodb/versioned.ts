// The conditional writes every store makes, written once: a lost condition is either an answer
// (false: the claim was taken, the value already set) or a ConcurrentUpdateError.
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConcurrentUpdateError } from '#shared/domain/errors';
import { isConditionFailure, writeIf } from './batch';

type TItem = Record<string, unknown>;
type TKey = Record<string, string>;

/** A conditional write whose lost condition means another request changed the item first. */
export async function orConflict(write: Promise<unknown>, message?: string): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (isConditionFailure(err)) throw new ConcurrentUpdateError(message);
    throw err;
  }
}

/** A Put made only if `condition` holds; a ConcurrentUpdateError if it does not. */
export function putIf(
  db: DynamoDBDocumentClient,
  table: string,
  item: TItem,
  condition: string,
  values?: TItem,
): Promise<void> {
  return orConflict(
    db.send(
      new PutCommand({
        TableName: table,
        Item: item,
        ConditionExpression: condition,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      }),
    ),
  );
}

/**
 * A Put of a new item, refused with the SDK's ConditionalCheckFailedException when its key is
 * taken (a caller that expects that wraps it in writeIf).
 */
export async function putNew(db: DynamoDBDocumentClient, table: string, item: TItem): Promise<void> {
  await db.send(
    new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

/** An UpdateItem made only if its condition holds: false when it does not. */
export function updateIf(
  db: DynamoDBDocumentClient,
  table: string,
  key: TKey,
  update: Pick<
    UpdateCommandInput,
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  return writeIf(db.send(new UpdateCommand({ TableName: table, Key: key, ...update })));
}

/** Sets an attribute of an existing item that has none yet (a single-use claim): false when it had. */
export function setOnce(
  db: DynamoDBDocumentClient,
  table: string,
  key: TKey,
  attribute: string,
  value: unknown,
): Promise<boolean> {
  return updateIf(db, table, key, {
    UpdateExpression: 'SET #a = :v',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#a)',
    ExpressionAttributeNames: { '#a': attribute },
    ExpressionAttributeValues: { ':v': value },
  });
}

/**
 * Optimistic concurrency for every aggregate: a new item is put only if its key is free, a
 * changed one only if the stored version is still the one read. A lost race is a
 * ConcurrentUpdateError, which use cases retry (retry-on-conflict.ts).
 */
export function putVersioned(
  db: DynamoDBDocumentClient,
  table: string,
  item: TItem,
  previous: { version: number } | undefined,
): Promise<void> {
  const { condition, values } = versionCondition(previous);
  return putIf(db, table, item, condition, values);
}

/** What a versioned put requires of the stored item: the version read, or no item yet. */
function versionCondition(previous: { version: number } | undefined) {
  return previous
    ? { condition: 'version = :v', values: { ':v': previous.version } }
    : { condition: 'attribute_not_exists(pk)', values: undefined };
}

/** One versioned put of a transaction (putVersionedTogether). */
export interface TVersionedPut {
  item: TItem;
  previous: { version: number } | undefined;
}

/**
 * Versioned puts of several items made together or not at all (one TransactWriteItems): when
 * any item's version moved on, none is written and the caller gets a ConcurrentUpdateError, as
 * from putVersioned. What one change must keep consistent across items (a signer's record and
 * the bundle it completes) is written this way, so no reader ever sees one without the other.
 */
export function putVersionedTogether(
  db: DynamoDBDocumentClient,
  table: string,
  puts: TVersionedPut[],
): Promise<void> {
  const TransactItems = puts.map(({ item, previous }) => {
    const { condition, values } = versionCondition(previous);
    return {
      Put: {
        TableName: table,
        Item: item,
        ConditionExpression: condition,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      },
    };
  });
  return orConflict(db.send(new TransactWriteCommand({ TransactItems })));
}

/** Deletes the item only if its stored version is still the one read. */
export function deleteVersioned(
  db: DynamoDBDocumentClient,
  table: string,
  key: TKey,
  version: number,
): Promise<void> {
  return orConflict(
    db.send(
      new DeleteCommand({
        TableName: table,
        Key: key,
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': version },
      }),
    ),
  );
}
