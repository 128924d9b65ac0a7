import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TSigningToken, TSigningTokenStore } from '../../ports';
import { isConditionFailure } from './batch';
import { bundleKeys } from './entities/bundle';

export function createSigningTokenStore(db: DynamoDBDocumentClient, table: string): TSigningTokenStore {
  return {
    async create(token) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { ...bundleKeys.signingToken(token.hash), entity: 'signing-token', ...token },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async get(hash) {
      const out = await db.send(
        new GetCommand({ TableName: table, Key: bundleKeys.signingToken(hash), ConsistentRead: true }),
      );
      if (!out.Item) return undefined;
      const { pk: _pk, sk: _sk, entity: _e, ...token } = out.Item;
      return token as TSigningToken;
    },

    async consume(hash, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: bundleKeys.signingToken(hash),
            UpdateExpression: 'SET usedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
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
