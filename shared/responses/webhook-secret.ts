import type { TWebhookSecret } from '../domain/webhooks/webhook-secret';

/** The spec's WebhookSecret. */
export interface TWebhookSecretResponse {
  secret: string;
  create_date: string;
}

export const toWebhookSecretResponse = (s: TWebhookSecret): TWebhookSecretResponse => ({
  secret: s.secret,
  create_date: s.created,
});
