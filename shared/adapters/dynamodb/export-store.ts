import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TExportStore } from '#shared/domain/ports/exports';
import { getItem, writeIf } from './batch';
import { exportEntity, exportKeys } from './entities/export';
import { putIf } from './versioned';

/**
 * One record an account, replaced by the next export once finished. Starting is one
 * conditional Put (no record, a finished one, or one whose lease ran out), so two starts at
 * once make one export; every later change is conditional on `version`.
 */
export function createExportStore(db: DynamoDBDocumentClient, table: string): TExportStore {
  return {
    get: (accountId) => getItem(db, table, exportKeys.item(accountId), exportEntity.fromItem, true),
    start: (record, now) =>
      writeIf(
        db.send(
          new PutCommand({
            TableName: table,
            Item: exportEntity.toItem(record),
            ConditionExpression: 'attribute_not_exists(pk) OR #s IN (:done, :failed) OR leaseUntil < :now',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':done': 'done', ':failed': 'failed', ':now': now },
          }),
        ),
      ),
    save: (record) =>
      putIf(db, table, exportEntity.toItem(record), 'version = :v', { ':v': record.version - 1 }),
  };
}
