import type { TSubscribableEventType } from '#shared/schemas/vocabulary';

/** A header sent with every call of its webhook. */
export interface TWebhookHeader {
  id: string;
  name: string;
  value: string;
  order: number;
}

/** The webhook aggregate: its extra headers live inside it (at most WEBHOOK_LIMITS.headers). */
export interface TWebhook {
  id: string;
  accountId: string;
  url: string;
  enabled: boolean;
  json: boolean;
  eventTypes: TSubscribableEventType[];
  extraHeaders: TWebhookHeader[];
  created: string;
  updated: string;
  /** Events whose every delivery attempt failed, since the last success. */
  failedInARow?: number;
  /** Set when the service disabled the webhook for failing (see WEBHOOK_DISABLE_AFTER). */
  disabledAt?: string;
  version: number;
}

/**
 * A webhook whose last this many events all failed every attempt is disabled: its receiver is
 * gone. Its events are still logged (not delivered), so they can be redelivered once it is fixed
 * and enabled again.
 */
export const WEBHOOK_DISABLE_AFTER = 10;

/** Turning a webhook on again forgets its failures. */
export function withEnabled(current: TWebhook, next: TWebhook): TWebhook {
  if (!next.enabled || current.enabled) return next;
  const { failedInARow: _f, disabledAt: _d, ...rest } = next;
  return rest;
}
