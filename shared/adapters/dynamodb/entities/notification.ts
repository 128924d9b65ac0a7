// Keys of what the notifications worker keeps: one record per message sent, and the provider's
// message id → that message, declared once.
import type { TNotificationRecord, TSentMessage } from '../../../domain/notifications/notification';
import { accountPartition } from './account-partition';

export const notificationKeys = {
  /** One message of one job to one recipient, claimed with a conditional write before sending. */
  record: (accountId: string, bundleId: string, seq: number, recipient: string) => ({
    pk: accountPartition(accountId),
    sk: `NOTIFY#${bundleId}#${seq}#${recipient}`,
  }),
  /** A provider's message id → the message: bounce and complaint reports name only that id. */
  sent: (providerMessageId: string) => ({ pk: `NOTIFYMSG#${providerMessageId}`, sk: 'NOTIFYMSG' }),
};

export function notificationRecordToItem(r: TNotificationRecord): Record<string, unknown> {
  return {
    ...notificationKeys.record(r.accountId, r.bundleId, r.seq, r.recipient),
    entity: 'notification',
    ...r,
  };
}

export function notificationRecordFromItem(item: Record<string, unknown>): TNotificationRecord {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return rest as unknown as TNotificationRecord;
}

export function sentMessageToItem(m: TSentMessage): Record<string, unknown> {
  return { ...notificationKeys.sent(m.providerMessageId), entity: 'notification-message', ...m };
}

export function sentMessageFromItem(item: Record<string, unknown>): TSentMessage {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return rest as unknown as TSentMessage;
}
