import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConcurrentUpdateError } from '../../domain/errors';
import type { TEvidenceStore } from '../../ports/evidence';
import { getItem, isConditionFailure, writeIf } from './batch';
import { evidenceKeys, filesRecordFromItem, hashEntryFromItem, hashEntryToItem } from './entities/evidence';

/** The files record is changed by updates of its parts, so the final set, the lease and the interim state never overwrite each other. */
export function createEvidenceStore(db: DynamoDBDocumentClient, table: string): TEvidenceStore {
  const identity = (accountId: string, bundleId: string) => ({
    ':entity': 'bundle-files',
    ':accountId': accountId,
    ':bundleId': bundleId,
  });
  const SET_IDENTITY = '#entity = :entity, accountId = :accountId, bundleId = :bundleId';

  return {
    async get(accountId, bundleId) {
      return getItem(db, table, evidenceKeys.files(accountId, bundleId), filesRecordFromItem, true);
    },

    async claimFinal(accountId, bundleId, lease, now) {
      return writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: evidenceKeys.files(accountId, bundleId),
            UpdateExpression: `SET ${SET_IDENTITY}, #lease = :lease`,
            ConditionExpression: 'attribute_not_exists(#lease) OR #lease.#until < :now',
            ExpressionAttributeNames: { '#entity': 'entity', '#lease': 'lease', '#until': 'until' },
            ExpressionAttributeValues: { ...identity(accountId, bundleId), ':lease': lease, ':now': now },
          }),
        ),
      );
    },

    async saveFinal(record, leaseId) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: evidenceKeys.files(record.accountId, record.bundleId),
            UpdateExpression: `SET ${SET_IDENTITY}, finals = :finals, certificates = :certificates, attachments = :attachments, issuedAt = :issuedAt, chainHead = :chainHead, eventCount = :eventCount REMOVE #lease`,
            ConditionExpression: '#lease.#id = :leaseId',
            ExpressionAttributeNames: { '#entity': 'entity', '#lease': 'lease', '#id': 'id' },
            ExpressionAttributeValues: {
              ...identity(record.accountId, record.bundleId),
              ':finals': record.finals,
              ':certificates': record.certificates,
              ':attachments': record.attachments,
              ':issuedAt': record.issuedAt,
              ':chainHead': record.chainHead,
              ':eventCount': record.eventCount,
              ':leaseId': leaseId,
            },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err))
          throw new ConcurrentUpdateError('Another run of the job took the files over.');
        throw err;
      }
    },

    async releaseFinal(accountId, bundleId, leaseId) {
      await writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: evidenceKeys.files(accountId, bundleId),
            UpdateExpression: 'REMOVE #lease',
            ConditionExpression: '#lease.#id = :leaseId',
            ExpressionAttributeNames: { '#lease': 'lease', '#id': 'id' },
            ExpressionAttributeValues: { ':leaseId': leaseId },
          }),
        ),
      );
    },

    async saveInterim(accountId, bundleId, interim) {
      // A later request's interim files may be there already: they stand.
      await writeIf(
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: evidenceKeys.files(accountId, bundleId),
            UpdateExpression: `SET ${SET_IDENTITY}, interim = :interim`,
            ConditionExpression: 'attribute_not_exists(interim) OR interim.seq <= :seq',
            ExpressionAttributeNames: { '#entity': 'entity' },
            ExpressionAttributeValues: {
              ...identity(accountId, bundleId),
              ':interim': interim,
              ':seq': interim.seq,
            },
          }),
        ),
      );
    },

    async putHash(entry) {
      await db.send(new PutCommand({ TableName: table, Item: hashEntryToItem(entry) }));
    },

    async deleteHash(sha256, accountId) {
      await db.send(new DeleteCommand({ TableName: table, Key: evidenceKeys.hash(sha256, accountId) }));
    },

    async getHash(sha256, accountId) {
      return getItem(db, table, evidenceKeys.hash(sha256, accountId), hashEntryFromItem);
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
      return item ? hashEntryFromItem(item) : undefined;
    },
  };
}
