import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TPortalCounterStore } from '#shared/domain/ports/accounts';
import { portalCounterEntity, portalCounterKeys } from './entities/portal-counter';
import { markersSet } from './entity';
import { updateIf } from './versioned';

/**
 * One UpdateItem that adds 1 only while the count is under the limit, so concurrent requests can
 * never pass it. The item expires through the table's TTL after its window.
 */
export function createPortalCounterStore(db: DynamoDBDocumentClient, table: string): TPortalCounterStore {
  const markers = markersSet(portalCounterEntity);
  return {
    take: (counter, limit, expiresAt) =>
      updateIf(db, table, portalCounterKeys.item(counter), {
        UpdateExpression: `ADD #n :one SET #ttl = :ttl, #counter = :counter, ${markers.set}`,
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { ...markers.names, '#n': 'count', '#ttl': 'ttl', '#counter': 'counter' },
        ExpressionAttributeValues: {
          ...markers.values,
          ':one': 1,
          ':limit': limit,
          ':ttl': Math.ceil(expiresAt.getTime() / 1000),
          ':counter': counter,
        },
      }),
  };
}
