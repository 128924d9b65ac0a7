export const WEBHOOK_EVENT_TYPES = [
  'bundle_sent',
  'bundle_complete',
  'bundle_docs_ready',
  'bundle_error',
  'bundle_cancelled',
  'packet_viewed',
  'packet_complete',
  'packet_declined',
] as const;

export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Types BlueInk added to its API after the spec this service follows, which its official
 * clients offer: a webhook may subscribe to them, so those clients work unchanged. The
 * document-template types fire on a template's create, update and delete
 * (shared/domain/templates/publish-template-event.ts);
 * bundle_signer_reassigned never fires, as this service has no reassignment.
 */
export const NEWER_EVENT_TYPES = [
  'bundle_signer_reassigned',
  'doc_template_created',
  'doc_template_updated',
  'doc_template_deleted',
] as const;

export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...NEWER_EVENT_TYPES] as const;
export type TSubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

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

/** Every filter given must match. */
export interface TWebhookFilter {
  enabled?: boolean;
  /** Subscribed to this event type. */
  eventType?: TSubscribableEventType;
  /** Subscribed to at least one of these. */
  anyEventTypes?: TSubscribableEventType[];
}

export function webhookMatches(w: TWebhook, f: TWebhookFilter): boolean {
  if (f.enabled !== undefined && w.enabled !== f.enabled) return false;
  if (f.eventType && !w.eventTypes.includes(f.eventType)) return false;
  if (f.anyEventTypes && !f.anyEventTypes.some((t) => w.eventTypes.includes(t))) return false;
  return true;
}

export const isEmptyWebhookFilter = (f: TWebhookFilter) =>
  f.enabled === undefined && f.eventType === undefined && f.anyEventTypes === undefined;
