import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TSigningRecordStore } from '#shared/domain/ports/signing';
import { getItem, queryAll } from './batch';
import { accountPartition } from './entities/account-partition';
import { signingKeys, signingRecordEntity } from './entities/signing';
import { putVersioned } from './versioned';

const { toItem, fromItem } = signingRecordEntity;

export function createSigningRecordStore(db: DynamoDBDocumentClient, table: string): TSigningRecordStore {
  return {
    async get(accountId, bundleId, packetId) {
      return getItem(db, table, signingKeys.record(accountId, bundleId, packetId), fromItem, true);
    },

    async all(accountId, bundleId) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': accountPartition(accountId),
          ':p': signingKeys.recordPrefix(bundleId),
        },
        ConsistentRead: true,
      });
      return items.map(fromItem);
    },

    save: (record, previous) => putVersioned(db, table, toItem(record), previous),
  };
}
