import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TPrepSessionStore } from '#shared/domain/ports/templates';
import { getItem } from './batch';
import { prepSessionEntity, prepSessionKeys } from './entities/prep-session';
import { putNew, setOnce, updateIf } from './versioned';

export function createPrepSessionStore(db: DynamoDBDocumentClient, table: string): TPrepSessionStore {
  return {
    create: (session) => putNew(db, table, prepSessionEntity.toItem(session)),

    get: (hash) => getItem(db, table, prepSessionKeys.item(hash), prepSessionEntity.fromItem, true),

    finish: (hash, at) => setOnce(db, table, prepSessionKeys.item(hash), 'savedAt', at),

    // Only the claim made at `at`: never a later save's.
    reopen: (hash, at) =>
      updateIf(db, table, prepSessionKeys.item(hash), {
        UpdateExpression: 'REMOVE savedAt',
        ConditionExpression: 'savedAt = :at',
        ExpressionAttributeValues: { ':at': at },
      }),
  };
}
