// Keys of what the notifications worker keeps: one record per message sent, and the provider's
// message id → that message, declared once.
import type { TNotificationRecord, TSentMessage } from '#shared/domain/notifications/notification';
import { defineEntity } from '../entity';
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

export const notificationRecordEntity = defineEntity<TNotificationRecord>({
  name: 'notification',
  version: 1,
  key: (r) => notificationKeys.record(r.accountId, r.bundleId, r.seq, r.recipient),
});

export const sentMessageEntity = defineEntity<TSentMessage>({
  name: 'notification-message',
  version: 1,
  key: (m) => notificationKeys.sent(m.providerMessageId),
});
