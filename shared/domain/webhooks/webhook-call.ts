// What a webhook call carries: the body of docs/api-decisions.md and the headers that prove it is ours.
import { createHmac } from 'node:crypto';
import type { TWebhook } from './webhook';
import type { TWebhookEvent } from './webhook-event';

export interface TWebhookCall {
  body: string;
  /** In the order they go on the wire: the webhook's extra headers (by `order`) first. */
  headers: [string, string][];
}

/**
 * `{event_id, event_type, event_date, account_id, payload}`; json false sends the same keys
 * form-encoded with the payload as JSON text.
 */
export function callBody(event: TWebhookEvent, json: boolean): { body: string; contentType: string } {
  const fields = {
    event_id: event.id,
    event_type: event.type,
    event_date: event.eventDate,
    account_id: event.accountId,
  };
  if (json) {
    return {
      body: JSON.stringify({ ...fields, payload: JSON.parse(event.payload) as unknown }),
      contentType: 'application/json',
    };
  }
  return {
    body: new URLSearchParams({ ...fields, payload: event.payload }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  };
}

/** `X-BlueInk-Signature`: hex HMAC-SHA256 of `v0:{timestamp}:{body}`, keyed with the secret's text. */
export function blueinkSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
}

/**
 * `webhook-signature` of the Standard Webhooks specification: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`. The key is the secret's text as bytes, which the `standardwebhooks`
 * library takes with `{ format: 'raw' }` (README, "Receiving webhooks").
 */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The call for `event` to `webhook` at `timestamp` (Unix seconds), signed with every secret in
 * use (the current one first; the previous one too during its overlap). Several signatures are
 * joined by ", " in X-BlueInk-Signature and by spaces in webhook-signature, as that
 * specification does; a receiver accepts the call when any one of them verifies.
 */
export function buildWebhookCall(
  event: TWebhookEvent,
  webhook: TWebhook,
  secrets: string[],
  timestamp: number,
): TWebhookCall {
  const { body, contentType } = callBody(event, webhook.json);
  const extra = [...webhook.extraHeaders]
    .sort((a, b) => a.order - b.order)
    .map((h): [string, string] => [h.name, h.value]);
  return {
    body,
    headers: [
      ...extra,
      ['Content-Type', contentType],
      ['X-BlueInk-Request-Timestamp', String(timestamp)],
      ['X-BlueInk-Signature', secrets.map((s) => blueinkSignature(s, timestamp, body)).join(', ')],
      ['webhook-id', event.id],
      ['webhook-timestamp', String(timestamp)],
      ['webhook-signature', secrets.map((s) => standardSignature(s, event.id, timestamp, body)).join(' ')],
    ],
  };
}
