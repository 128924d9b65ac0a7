import type { TWebhookSecret } from '#shared/domain/webhooks/webhook-secret';
import type { TWebhookSecretResponse } from '#shared/schemas/responses/webhook';

/** The spec's WebhookSecret. */
export const toWebhookSecretResponse = (s: TWebhookSecret): TWebhookSecretResponse => ({
  secret: s.secret,
  create_date: s.created,
});
