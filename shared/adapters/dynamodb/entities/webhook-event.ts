// Keys and entities of the webhook log: WebhookEvents and their delivery attempts, declared once.
import type { TWebhookDelivery, TWebhookEvent } from '#shared/domain/webhooks/webhook-event';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const webhookEventKeys = {
  event: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `WHEVENT#${id}` }),
  delivery: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `WHDELIVERY#${id}` }),
  /** by-log partitions: `<time>#<id>` sort keys, so a backwards query is newest first. */
  eventLog: (accountId: string) => `${accountPartition(accountId)}#WHEVENTS`,
  deliveryLog: (accountId: string) => `${accountPartition(accountId)}#WHDELIVERIES`,
};

/** Its `by-log` index projects the attributes the log filters read, the type as `eventType`. */
export const webhookEventEntity = defineEntity<TWebhookEvent>({
  name: 'webhook-event',
  version: 1,
  key: (e) => webhookEventKeys.event(e.accountId, e.id),
  indexes: {
    byLog: (e) => ({ logPk: webhookEventKeys.eventLog(e.accountId), logSk: `${e.created}#${e.id}` }),
  },
  encode: (e) => ({
    id: e.id,
    accountId: e.accountId,
    webhookId: e.webhookId,
    eventType: e.type,
    created: e.created,
    eventDate: e.eventDate,
    ...(e.bundleId ? { bundleId: e.bundleId } : {}),
    ...(e.packetId ? { packetId: e.packetId } : {}),
    payload: e.payload,
    status: e.status,
    success: e.success,
    deliveries: e.deliveries,
    queued: e.queued,
  }),
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    webhookId: item.webhookId as string,
    type: item.eventType as TWebhookEvent['type'],
    created: item.created as string,
    eventDate: item.eventDate as string,
    ...(item.bundleId ? { bundleId: item.bundleId as string } : {}),
    ...(item.packetId ? { packetId: item.packetId as string } : {}),
    payload: item.payload as string,
    status: Number(item.status ?? 0),
    success: Boolean(item.success),
    deliveries: (item.deliveries as TWebhookEvent['deliveries'] | undefined) ?? [],
    queued: Boolean(item.queued),
  }),
});

export const webhookDeliveryEntity = defineEntity<TWebhookDelivery>({
  name: 'webhook-delivery',
  version: 1,
  key: (d) => webhookEventKeys.delivery(d.accountId, d.id),
  indexes: {
    byLog: (d) => ({ logPk: webhookEventKeys.deliveryLog(d.accountId), logSk: `${d.timestamp}#${d.id}` }),
  },
  decode: (item) => ({
    id: item.id as string,
    accountId: item.accountId as string,
    eventId: item.eventId as string,
    webhookId: item.webhookId as string,
    eventType: item.eventType as TWebhookDelivery['eventType'],
    timestamp: item.timestamp as string,
    status: Number(item.status ?? 0),
    success: Boolean(item.success),
    message: (item.message as string | undefined) ?? '',
    payload: item.payload as string,
    eventCreated: item.eventCreated as string,
  }),
});
