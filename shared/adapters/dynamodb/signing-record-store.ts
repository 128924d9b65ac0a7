import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TSigningRecordStore } from '#shared/domain/ports/signing';
import { getItem, queryAll } from './batch';
import { accountPartition } from './entities/account-partition';
import { bundleEntity, bundleKeys, documentOf } from './entities/bundle';
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

    async withBundle(accountId, bundleId) {
      // The bundle item, its documents and its signers' records share the account's partition and
      // the bundle's key prefix (docs/architecture/table.md): one Query reads the three, where
      // three requests did. Its event pages (only a bundle past 100 events has any) and its files
      // record lie between them and are left out here: DynamoDB filters on no key attribute.
      const { sk } = bundleKeys.item(accountId, bundleId);
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: {
          ':pk': accountPartition(accountId),
          ':first': sk,
          ':last': `${sk}#~`,
        },
        ConsistentRead: true,
      });
      const item = items.find((i) => i.sk === sk);
      const under = (prefix: string) => items.filter((i) => String(i.sk).startsWith(prefix));
      return {
        ...(item ? { bundle: bundleEntity.fromItem(item) } : {}),
        documents: under(bundleKeys.documentPrefix(bundleId)).map((i) => documentOf(i)),
        records: under(signingKeys.recordPrefix(bundleId)).map(fromItem),
      };
    },

    save: (record, previous) => putVersioned(db, table, toItem(record), previous),
  };
}
