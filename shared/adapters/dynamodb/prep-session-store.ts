import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TPrepSession } from '../../domain/templates/prep-session';
import type { TPrepSessionStore } from '../../ports';
import { isConditionFailure } from './batch';
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
      const out = await db.send(
        new GetCommand({ TableName: table, Key: prepSessionKeys.item(hash), ConsistentRead: true }),
      );
      if (!out.Item) return undefined;
      const { pk: _pk, sk: _sk, entity: _e, ttl: _ttl, ...session } = out.Item;
      return session as TPrepSession;
    },

    async finish(hash, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: prepSessionKeys.item(hash),
            UpdateExpression: 'SET savedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(savedAt)',
            ExpressionAttributeValues: { ':at': at },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
  };
}
