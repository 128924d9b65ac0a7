import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TPortalCounterStore } from '../../ports/accounts';
import { writeIf } from './batch';

/**
 * `PORTALCOUNT#<counter>` / `PORTALCOUNT`: one UpdateItem that adds 1 only while the count is
 * under the limit, so concurrent requests can never pass it. The item expires through the
 * table's TTL (`ttl`, epoch seconds) after its window.
 */
export function createPortalCounterStore(db: DynamoDBDocumentClient, table: string): TPortalCounterStore {
  return {
    async take(counter, limit, expiresAt) {
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: `PORTALCOUNT#${counter}`, sk: 'PORTALCOUNT' },
            UpdateExpression: 'ADD #n :one SET #ttl = :ttl, entity = :entity',
            ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
            ExpressionAttributeNames: { '#n': 'count', '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': limit,
              ':ttl': Math.ceil(expiresAt.getTime() / 1000),
              ':entity': 'portal-counter',
            },
          }),
        ),
      );
    },
  };
}
