import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TSigningToken, TSigningTokenStore } from '../../ports/signing';
import { getItem, writeIf } from './batch';
import { signingKeys } from './entities/signing';

export function createSigningTokenStore(db: DynamoDBDocumentClient, table: string): TSigningTokenStore {
  return {
    async create(token) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { ...signingKeys.token(token.hash), entity: 'signing-token', ...token },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async get(hash) {
      return getItem(
        db,
        table,
        signingKeys.token(hash),
        ({ pk: _pk, sk: _sk, entity: _e, ...token }) => token as TSigningToken,
        true,
      );
    },

    async consume(hash, at) {
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: signingKeys.token(hash),
            UpdateExpression: 'SET usedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
            ExpressionAttributeValues: { ':at': at },
          }),
        ),
      );
    },
  };
}
