import type { TWebhookDelivery, TWebhookEvent } from '#shared/domain/webhooks/webhook-event';
import type { TWebhookDeliveryResponse, TWebhookEventResponse } from '#shared/schemas/responses/webhook';

/** A logged event with its delivery attempts (spec "WebhookEvent"). */
export function toWebhookEventResponse(e: TWebhookEvent): TWebhookEventResponse {
  return {
    pk: e.id,
    id: e.id,
    webhook: e.webhookId,
    event_type: e.type,
    created: e.created,
    status: e.status,
    success: e.success,
    payload: e.payload,
    deliveries: e.deliveries.map((d) => ({
      pk: d.id,
      timestamp: d.timestamp,
      status: d.status,
      message: d.message,
    })),
  };
}

/**
 * The deliveries list answers in the WebhookEvent shape (the spec), each item one attempt: its
 * own id, status and time, with its event's fields, and the delivery fields of the reference API
 * (`timestamp`, `message`) too, so a client reading either shape finds what it expects.
 */
export function toWebhookDeliveryResponse(d: TWebhookDelivery): TWebhookDeliveryResponse {
  const summary = { pk: d.id, timestamp: d.timestamp, status: d.status, message: d.message };
  return {
    ...summary,
    id: d.id,
    webhook: d.webhookId,
    webhook_event: d.eventId,
    event_type: d.eventType,
    created: d.eventCreated,
    success: d.success,
    payload: d.payload,
    deliveries: [summary],
  };
}
