// A WebhookEvent is one webhook's copy of one bundle event: logged with its payload when the
// event is published, then updated by every delivery attempt.

import type { TSubscribableEventType } from '#shared/schemas/vocabulary';
import type { TDayRange } from '../day-range';
import { derivedUuid } from '../derived-ids';

/** An attempt as the event's `deliveries` list shows it. */
export interface TDeliverySummary {
  id: string;
  /** When the attempt started (not when it failed, e.g. for a timeout). */
  timestamp: string;
  /** HTTP status of the answer; 0 for none. */
  status: number;
  message: string;
}

export interface TWebhookDelivery extends TDeliverySummary {
  accountId: string;
  eventId: string;
  webhookId: string;
  eventType: TSubscribableEventType;
  success: boolean;
  /** The event's payload and log time, so the list can answer in the WebhookEvent shape. */
  payload: string;
  eventCreated: string;
}

export interface TWebhookEvent {
  id: string;
  accountId: string;
  webhookId: string;
  type: TSubscribableEventType;
  /** When the event was logged. */
  created: string;
  /** When the state change that fired it happened. */
  eventDate: string;
  /** Absent for document template events (their payload names the template). */
  bundleId?: string;
  packetId?: string;
  /** The `payload` object of the call, as JSON text. */
  payload: string;
  /** Status of the last answer, 0 for none (or no attempt yet). */
  status: number;
  /** Whether any attempt succeeded. */
  success: boolean;
  /** Latest attempts, oldest first (at most MAX_DELIVERIES_SHOWN, shared/domain/ports/webhooks.ts). */
  deliveries: TDeliverySummary[];
  /** Whether a delivery job was put on the queue (false: logged only, e.g. webhook disabled). */
  queued: boolean;
}

export interface TWebhookEventFilter {
  webhookId?: string;
  /** Any of these. */
  types?: TSubscribableEventType[];
  /** Any of these last statuses. */
  statuses?: number[];
  success?: boolean;
  dates?: TDayRange;
}

export interface TWebhookDeliveryFilter {
  webhookId?: string;
  eventId?: string;
  types?: TSubscribableEventType[];
  statuses?: number[];
  dates?: TDayRange;
}

/**
 * The id of a webhook's copy of a bundle's event, derived from what identifies it (a UUIDv8 of
 * a SHA-256): publishing the same outbox entry again yields the same id, so it is logged and
 * delivered as one event however often publishing is repeated.
 */
export function webhookEventId(bundleId: string, seq: number, webhookId: string): string {
  return derivedUuid(`${bundleId}:${seq}:${webhookId}`);
}
