// Webhooks, their extra headers, the shared secret and the event log as the API answers them
// (spec "Webhook", "WebhookHeader", "WebhookSecret", "WebhookEvent"), and the body of a call the
// service makes to a receiver (docs/api-decisions.md); the mappers are typed by these schemas.
import * as z from 'zod';
import { SUBSCRIBABLE_EVENT_TYPES } from '../vocabulary';

export const ZWebhookHeaderResponseSchema = z
  .object({
    id: z.string(),
    webhook: z.string(),
    name: z.string(),
    value: z.string(),
    order: z.number().int(),
  })
  .meta({ id: 'WebhookHeader' });

export const ZWebhookResponseSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    json: z.boolean(),
    event_types: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)),
    extra_headers: z.array(ZWebhookHeaderResponseSchema),
  })
  .meta({ id: 'Webhook' });

export const ZWebhookSecretResponseSchema = z
  .object({ secret: z.string(), create_date: z.string() })
  .meta({ id: 'WebhookSecret' });

/** One attempt to deliver an event: the receiver's HTTP status (0 for none) and what happened. */
const ZDeliverySummarySchema = z.object({
  pk: z.string(),
  timestamp: z.string(),
  status: z.number().int(),
  message: z.string(),
});

export const ZWebhookEventResponseSchema = z
  .object({
    pk: z.string(),
    id: z.string(),
    webhook: z.string(),
    event_type: z.enum(SUBSCRIBABLE_EVENT_TYPES),
    created: z.string(),
    status: z.number().int(),
    success: z.boolean(),
    /** The call's `payload` object as JSON text. */
    payload: z.string(),
    deliveries: z.array(ZDeliverySummarySchema),
  })
  .meta({ id: 'WebhookEvent' });

/** A deliveries list item: the WebhookEvent shape for one attempt, with the attempt's own fields. */
export const ZWebhookDeliveryResponseSchema = ZWebhookEventResponseSchema.omit({ pk: true })
  .extend({
    pk: z.string(),
    timestamp: z.string(),
    message: z.string(),
    webhook_event: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

/**
 * The JSON body of a call to a receiver (a webhook with `json` false gets the same keys
 * form-encoded, the payload as JSON text). Bundle events carry the bundle, and the packet and
 * custom key where there is one; document template events carry the template; packet_reassigned
 * also who handed the packet to whom (`from`, `to`) and why.
 */
const ZSignerOfCall = z.object({ name: z.string(), email: z.string(), phone: z.string() });

export const ZWebhookCallSchema = z
  .object({
    event_id: z.string(),
    event_type: z.enum(SUBSCRIBABLE_EVENT_TYPES),
    event_date: z.string(),
    account_id: z.string(),
    payload: z.object({
      bundle_id: z.string().optional(),
      packet_id: z.string().optional(),
      custom_key: z.string().optional(),
      template_id: z.string().optional(),
      from: ZSignerOfCall.optional(),
      to: ZSignerOfCall.optional(),
      reason: z.string().optional(),
      batch_id: z.string().optional(),
      total: z.number().int().optional(),
      created: z.number().int().optional(),
      failed: z.number().int().optional(),
    }),
  })
  .meta({ id: 'WebhookCall' });

export type TWebhookHeaderResponse = z.output<typeof ZWebhookHeaderResponseSchema>;
export type TWebhookResponse = z.output<typeof ZWebhookResponseSchema>;
export type TWebhookSecretResponse = z.output<typeof ZWebhookSecretResponseSchema>;
export type TWebhookEventResponse = z.output<typeof ZWebhookEventResponseSchema>;
export type TWebhookDeliveryResponse = z.output<typeof ZWebhookDeliveryResponseSchema>;
