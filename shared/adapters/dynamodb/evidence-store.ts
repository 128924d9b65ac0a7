import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentUpdateError } from '#shared/domain/errors';
import type { TEvidenceStore } from '#shared/domain/ports/evidence';
import { getItem } from './batch';
import { evidenceKeys, fileHashEntity, filesRecordEntity } from './entities/evidence';
import { markersSet } from './entity';
import { updateIf } from './versioned';

/** The files record is changed by updates of its parts, so the final set, the lease and the interim state never overwrite each other. */
export function createEvidenceStore(db: DynamoDBDocumentClient, table: string): TEvidenceStore {
  /** What every update that may create the record sets: its markers and the parts of its key. */
  const markers = markersSet(filesRecordEntity);
  const identity = (accountId: string, bundleId: string, update: string) => ({
    UpdateExpression: `SET ${markers.set}, accountId = :accountId, bundleId = :bundleId, ${update}`,
    values: { ...markers.values, ':accountId': accountId, ':bundleId': bundleId },
  });

  return {
    async get(accountId, bundleId) {
      return getItem(db, table, evidenceKeys.files(accountId, bundleId), filesRecordEntity.fromItem, true);
    },

    async claimFinal(accountId, bundleId, lease, now) {
      const set = identity(accountId, bundleId, '#lease = :lease');
      return updateIf(db, table, evidenceKeys.files(accountId, bundleId), {
        UpdateExpression: set.UpdateExpression,
        ConditionExpression: 'attribute_not_exists(#lease) OR #lease.#until < :now',
        ExpressionAttributeNames: { ...markers.names, '#lease': 'lease', '#until': 'until' },
        ExpressionAttributeValues: { ...set.values, ':lease': lease, ':now': now },
      });
    },

    async saveFinal(record, leaseId) {
      const set = identity(
        record.accountId,
        record.bundleId,
        'finals = :finals, certificates = :certificates, attachments = :attachments, issuedAt = :issuedAt, chainHead = :chainHead, eventCount = :eventCount',
      );
      const saved = await updateIf(db, table, evidenceKeys.files(record.accountId, record.bundleId), {
        UpdateExpression: `${set.UpdateExpression} REMOVE #lease`,
        ConditionExpression: '#lease.#id = :leaseId',
        ExpressionAttributeNames: { ...markers.names, '#lease': 'lease', '#id': 'id' },
        ExpressionAttributeValues: {
          ...set.values,
          ':finals': record.finals,
          ':certificates': record.certificates,
          ':attachments': record.attachments,
          ':issuedAt': record.issuedAt,
          ':chainHead': record.chainHead,
          ':eventCount': record.eventCount,
          ':leaseId': leaseId,
        },
      });
      if (!saved) throw new ConcurrentUpdateError('Another run of the job took the files over.');
    },

    async releaseFinal(accountId, bundleId, leaseId) {
      await updateIf(db, table, evidenceKeys.files(accountId, bundleId), {
        UpdateExpression: 'REMOVE #lease',
        ConditionExpression: '#lease.#id = :leaseId',
        ExpressionAttributeNames: { '#lease': 'lease', '#id': 'id' },
        ExpressionAttributeValues: { ':leaseId': leaseId },
      });
    },

    async saveInterim(accountId, bundleId, interim) {
      // A later request's interim files may be there already: they stand.
      const set = identity(accountId, bundleId, 'interim = :interim');
      await updateIf(db, table, evidenceKeys.files(accountId, bundleId), {
        UpdateExpression: set.UpdateExpression,
        ConditionExpression: 'attribute_not_exists(interim) OR interim.seq <= :seq',
        ExpressionAttributeNames: markers.names,
        ExpressionAttributeValues: { ...set.values, ':interim': interim, ':seq': interim.seq },
      });
    },

    async putHash(entry) {
      await db.send(new PutCommand({ TableName: table, Item: fileHashEntity.toItem(entry) }));
    },

    async deleteHash(sha256, accountId) {
      await db.send(new DeleteCommand({ TableName: table, Key: evidenceKeys.hash(sha256, accountId) }));
    },

    async getHash(sha256, accountId) {
      return getItem(db, table, evidenceKeys.hash(sha256, accountId), fileHashEntity.fromItem);
    },

    async findHash(sha256) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': evidenceKeys.hashPartition(sha256) },
          Limit: 1,
        }),
      );
      const item = out.Items?.[0];
      return item ? fileHashEntity.fromItem(item) : undefined;
    },
  };
}
