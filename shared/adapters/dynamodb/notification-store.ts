import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TNotificationRecord } from '#shared/domain/notifications/notification';
import type { TNotificationStore } from '#shared/domain/ports/notifications';
import { getItem, writeIf } from './batch';
import { notificationKeys, notificationRecordEntity, sentMessageEntity } from './entities/notification';
import { updateIf } from './versioned';

// `state`, `error` and `updated` are not all reserved words, but naming them keeps every
// expression here readable the same way.
const NAMES = { '#state': 'state', '#updated': 'updated', '#error': 'error' };

export function createNotificationStore(db: DynamoDBDocumentClient, table: string): TNotificationStore {
  async function get(accountId: string, bundleId: string, seq: number, recipient: string) {
    return getItem(
      db,
      table,
      notificationKeys.record(accountId, bundleId, seq, recipient),
      notificationRecordEntity.fromItem,
      true,
    );
  }

  /** Sets the outcome of an attempt, only if that attempt still holds the claim. */
  async function settle(record: TNotificationRecord, update: string, values: Record<string, unknown>) {
    // A later attempt took the claim over (this one was presumed dead): its outcome stands.
    await updateIf(db, table, notificationRecordEntity.key(record), {
      UpdateExpression: update,
      ConditionExpression: 'claimId = :claim',
      ExpressionAttributeNames: NAMES,
      ExpressionAttributeValues: { ...values, ':claim': record.claimId },
    });
  }

  return {
    get,

    async claim(record, staleBefore) {
      // Twice at most: a record that vanished between the refused write and the read (never
      // deleted today) is simply claimed again.
      for (let round = 0; round < 2; round++) {
        const claimed = await writeIf(
          db.send(
            new PutCommand({
              TableName: table,
              Item: notificationRecordEntity.toItem(record),
              ConditionExpression:
                'attribute_not_exists(pk) OR #state = :failed OR (#state = :sending AND #updated < :stale)',
              ExpressionAttributeNames: { '#state': 'state', '#updated': 'updated' },
              ExpressionAttributeValues: {
                ':failed': 'failed',
                ':sending': 'sending',
                ':stale': staleBefore,
              },
            }),
          ),
        );
        if (claimed) return { claimed: true };
        const current = await get(record.accountId, record.bundleId, record.seq, record.recipient);
        if (current) return { claimed: false, current };
      }
      throw new Error('Could not claim the notification record');
    },

    async markSent(record, sent) {
      // The lookup first: a record marked sent always has its lookup for bounce reports.
      await db.send(new PutCommand({ TableName: table, Item: sentMessageEntity.toItem(sent) }));
      await settle(record, 'SET #state = :sent, providerMessageId = :id, #updated = :at REMOVE #error', {
        ':sent': 'sent',
        ':id': sent.providerMessageId,
        ':at': sent.sent,
      });
    },

    async markFailed(record, error, at) {
      await settle(record, 'SET #state = :failed, #error = :error, #updated = :at', {
        ':failed': 'failed',
        ':error': error,
        ':at': at,
      });
    },

    async findSent(providerMessageId) {
      return getItem(db, table, notificationKeys.sent(providerMessageId), sentMessageEntity.fromItem, true);
    },

    async noteReport(providerMessageId, kind) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: notificationKeys.sent(providerMessageId),
          UpdateExpression: 'SET reported = list_append(if_not_exists(reported, :none), :kind)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':none': [], ':kind': [kind] },
        }),
      );
    },
  };
}
