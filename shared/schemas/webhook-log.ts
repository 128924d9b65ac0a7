import * as z from 'zod';
import { optional, zBoolean, zCsv } from './common';
import { SUBSCRIBABLE_EVENT_TYPES } from './vocabulary';

/** The spec's log filters accept every event type except packet_declined (newer types too). */
export const LOGGED_EVENT_TYPE_FILTERS = SUBSCRIBABLE_EVENT_TYPES.filter((t) => t !== 'packet_declined');

const eventType = z.enum(LOGGED_EVENT_TYPE_FILTERS, `Choose from ${LOGGED_EVENT_TYPE_FILTERS.join(', ')}.`);
const uuid = z.uuid('Must be a valid UUID.');
/** An HTTP status, or 0 for no answer. */
const status = z
  .string()
  .regex(/^\s*\d{1,3}\s*$/, 'A valid integer from 0 to 999 is required.')
  .transform((s) => Number(s));
const day = z.iso.date('Enter a valid date: YYYY-MM-DD.');

const common = {
  webhook: optional(uuid),
  event_type: optional(eventType),
  event_type__in: optional(zCsv(eventType, LOGGED_EVENT_TYPE_FILTERS.length)),
  status: optional(status),
  status__in: optional(zCsv(status, 50)),
  date_after: optional(day),
  date_before: optional(day),
};

export const ZWebhookEventListQuerySchema = z.object({ ...common, success: optional(zBoolean) });
export const ZWebhookDeliveryListQuerySchema = z.object({ ...common, webhook_event: optional(uuid) });

export const WEBHOOK_EVENT_LIST_PARAMS = Object.keys(ZWebhookEventListQuerySchema.shape);
export const WEBHOOK_DELIVERY_LIST_PARAMS = Object.keys(ZWebhookDeliveryListQuerySchema.shape);
