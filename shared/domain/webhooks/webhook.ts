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
  eventTypes: TWebhookEventType[];
  extraHeaders: TWebhookHeader[];
  created: string;
  updated: string;
  version: number;
}

/** Every filter given must match. */
export interface TWebhookFilter {
  enabled?: boolean;
  /** Subscribed to this event type. */
  eventType?: TWebhookEventType;
  /** Subscribed to at least one of these. */
  anyEventTypes?: TWebhookEventType[];
}

export function webhookMatches(w: TWebhook, f: TWebhookFilter): boolean {
  if (f.enabled !== undefined && w.enabled !== f.enabled) return false;
  if (f.eventType && !w.eventTypes.includes(f.eventType)) return false;
  if (f.anyEventTypes && !f.anyEventTypes.some((t) => w.eventTypes.includes(t))) return false;
  return true;
}

export const isEmptyWebhookFilter = (f: TWebhookFilter) =>
  f.enabled === undefined && f.eventType === undefined && f.anyEventTypes === undefined;
