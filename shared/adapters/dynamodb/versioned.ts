import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentUpdateError } from '../../domain/errors';
import { isConditionFailure } from './batch';

/**
 * Optimistic concurrency for every aggregate: a new item is put only if its key is free, a
 * changed one only if the stored version is still the one read. A lost race is a
 * ConcurrentUpdateError, which use cases retry (retry-on-conflict.ts).
 */
export async function putVersioned(
  db: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  previous: { version: number } | undefined,
): Promise<void> {
  try {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: item,
        ...(previous
          ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new ConcurrentUpdateError();
    throw err;
  }
}

/** Deletes the item only if its stored version is still the one read. */
export async function deleteVersioned(
  db: DynamoDBDocumentClient,
  table: string,
  key: Record<string, string>,
  version: number,
): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: table,
        Key: key,
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': version },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new ConcurrentUpdateError();
    throw err;
  }
}
