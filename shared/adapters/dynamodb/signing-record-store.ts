import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TSigningRecord } from '../../domain/signing/signing-record';
import type { TSigningRecordStore } from '../../ports';
import { getItem, queryAll } from './batch';
import { bundleKeys } from './entities/bundle';
import { putVersioned } from './versioned';

function toItem(r: TSigningRecord): Record<string, unknown> {
  return { ...bundleKeys.signingRecord(r.accountId, r.bundleId, r.packetId), entity: 'signing-record', ...r };
}

function fromItem(item: Record<string, unknown>): TSigningRecord {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return rest as unknown as TSigningRecord;
}

export function createSigningRecordStore(db: DynamoDBDocumentClient, table: string): TSigningRecordStore {
  return {
    async get(accountId, bundleId, packetId) {
      return getItem(db, table, bundleKeys.signingRecord(accountId, bundleId, packetId), fromItem, true);
    },

    async all(accountId, bundleId) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': `ACCOUNT#${accountId}`,
          ':p': bundleKeys.signingRecordPrefix(bundleId),
        },
        ConsistentRead: true,
      });
      return items.map(fromItem);
    },

    save: (record, previous) => putVersioned(db, table, toItem(record), previous),
  };
}
