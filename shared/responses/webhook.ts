// A webhook and its extra headers as the API answers them (spec "Webhook", "WebhookHeader").
import type { TWebhook, TWebhookHeader } from '#shared/domain/webhooks/webhook';
import type { TWebhookHeaderResponse, TWebhookResponse } from '#shared/schemas/responses/webhook';

export function toWebhookHeaderResponse(webhookId: string, h: TWebhookHeader): TWebhookHeaderResponse {
  return { id: h.id, webhook: webhookId, name: h.name, value: h.value, order: h.order };
}

export function toWebhookResponse(w: TWebhook): TWebhookResponse {
  return {
    id: w.id,
    url: w.url,
    enabled: w.enabled,
    json: w.json,
    event_types: w.eventTypes,
    extra_headers: w.extraHeaders.map((h) => toWebhookHeaderResponse(w.id, h)),
  };
}
