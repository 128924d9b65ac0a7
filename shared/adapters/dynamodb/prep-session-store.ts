import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TPrepSession } from '../../domain/templates/prep-session';
import type { TPrepSessionStore } from '../../ports/templates';
import { getItem, writeIf } from './batch';
import { prepSessionKeys } from './entities/prep-session';

export function createPrepSessionStore(db: DynamoDBDocumentClient, table: string): TPrepSessionStore {
  return {
    async create(session) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...prepSessionKeys.item(session.hash),
            entity: 'prep-session',
            ...session,
            // Housekeeping only: expiry is checked on every read, never left to TTL.
            ttl: Math.floor(Date.parse(session.expires) / 1000) + 24 * 3600,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async get(hash) {
      return getItem(
        db,
        table,
        prepSessionKeys.item(hash),
        ({ pk: _pk, sk: _sk, entity: _e, ttl: _ttl, ...session }) => session as TPrepSession,
        true,
      );
    },

    async finish(hash, at) {
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: prepSessionKeys.item(hash),
            UpdateExpression: 'SET savedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(savedAt)',
            ExpressionAttributeValues: { ':at': at },
          }),
        ),
      );
    },

    async reopen(hash, at) {
      // Only the claim made at `at`: never a later save's.
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: prepSessionKeys.item(hash),
            UpdateExpression: 'REMOVE savedAt',
            ConditionExpression: 'savedAt = :at',
            ExpressionAttributeValues: { ':at': at },
          }),
        ),
      );
    },
  };
}
