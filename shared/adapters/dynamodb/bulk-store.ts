import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TBulkStore } from '#shared/domain/ports/bulk';
import { getItem, queryAll, writeIf } from './batch';
import { bulkBatchEntity, bulkKeys, bulkPaceEntity, bulkRowEntity } from './entities/bulk';
import { putNew, setOnce, updateIf } from './versioned';

export function createBulkStore(db: DynamoDBDocumentClient, table: string): TBulkStore {
  return {
    async create(batch) {
      await putNew(db, table, bulkBatchEntity.toItem(batch));
    },

    get: (accountId, id) => getItem(db, table, bulkKeys.batch(accountId, id), bulkBatchEntity.fromItem, true),

    async unfinishedOfAccount(accountId) {
      const { pk } = bulkKeys.batch(accountId, '');
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :batch)',
        FilterExpression: 'attribute_not_exists(completed)',
        ExpressionAttributeValues: { ':pk': pk, ':batch': bulkKeys.batch(accountId, '').sk },
        ConsistentRead: true,
      });
      return items.map(bulkBatchEntity.fromItem);
    },

    async rowResults(batch, rows) {
      const pk = bulkKeys.rows(batch.accountId, batch.id);
      const sk = (row: number) => bulkKeys.row(batch.accountId, batch.id, row).sk;
      const items = await queryAll(db, {
        TableName: table,
        ...(rows
          ? {
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :last',
              ExpressionAttributeValues: { ':pk': pk, ':from': sk(rows.from), ':last': sk(rows.to - 1) },
            }
          : { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
        ConsistentRead: true,
      });
      return items.map(bulkRowEntity.fromItem);
    },

    recordRow: (result) =>
      writeIf(
        db.send(
          new PutCommand({
            TableName: table,
            Item: bulkRowEntity.toItem(result),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),

    complete: (batch, at) =>
      updateIf(db, table, bulkKeys.batch(batch.accountId, batch.id), {
        UpdateExpression: 'SET #c = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#c)',
        ExpressionAttributeNames: { '#c': 'completed' },
        ExpressionAttributeValues: { ':at': at },
      }),

    async markOriginalsErased(row, at) {
      await setOnce(db, table, bulkKeys.row(row.accountId, row.batchId, row.row), 'originalsErased', at);
    },

    markDocumentsDeleted: (batch, deleted) =>
      setOnce(db, table, bulkKeys.batch(batch.accountId, batch.id), 'documentsDeleted', deleted),

    async reservePace(paceKey, rows, rowsPerSecond, now) {
      // Read, then a put conditional on what was read: of chunks reserving at once each gets
      // its own time, the losers reading again.
      for (let attempt = 0; ; attempt++) {
        const held = await getItem(db, table, bulkKeys.pace(paceKey), bulkPaceEntity.fromItem, true);
        const start = Math.max(now, held?.nextAt ?? 0);
        const nextAt = start + Math.ceil((rows * 1000) / rowsPerSecond);
        const reserved = await writeIf(
          db.send(
            new PutCommand({
              TableName: table,
              Item: bulkPaceEntity.toItem({ paceKey, nextAt }),
              ...(held
                ? {
                    ConditionExpression: 'nextAt = :seen',
                    ExpressionAttributeValues: { ':seen': held.nextAt },
                  }
                : { ConditionExpression: 'attribute_not_exists(pk)' }),
            }),
          ),
        );
        if (reserved) return start;
        if (attempt >= 20) throw new Error('The bulk pace could not be reserved.');
      }
    },
  };
}
