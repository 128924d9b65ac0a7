import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TSigningTokenStore } from '../../ports';
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
  };
}
