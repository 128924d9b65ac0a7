// Webhook subscriptions, their shared secret, the events and their delivery.

import type { TSubscribableEventType } from '#shared/schemas/vocabulary';
import type { TPage, TPageOf } from '../paging';
import type { TWebhook } from '../webhooks/webhook';
import type {
  TWebhookDelivery,
  TWebhookDeliveryFilter,
  TWebhookEvent,
  TWebhookEventFilter,
} from '../webhooks/webhook-event';
import type { TWebhookSecretRecord } from '../webhooks/webhook-secret-record';

/** A list of webhooks by what they subscribe to: every filter given must match. */
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

export interface TWebhookStore {
  get(accountId: string, id: string): Promise<TWebhook | undefined>;
  /** The id of the webhook holding an extra header, from its lookup item (check the webhook has it). */
  webhookOfHeader(accountId: string, headerId: string): Promise<string | undefined>;
  /** `previous` undefined: create (fails if the id exists); else replace if its version still holds. */
  save(webhook: TWebhook, previous: TWebhook | undefined): Promise<void>;
  delete(webhook: TWebhook): Promise<void>;
  /** Newest first. */
  list(accountId: string, filter: TWebhookFilter, page: TPage): Promise<TPageOf<TWebhook>>;
  /** Every webhook of the account, newest first. */
  all(accountId: string): Promise<TWebhook[]>;
}

/** The account's webhook shared secret, one item, written conditionally on `version`. */
export interface TWebhookSecretStore {
  get(accountId: string): Promise<TWebhookSecretRecord | undefined>;
  /** `previous` undefined: create, failing if one exists. Either way a lost race is ConcurrentUpdateError. */
  save(record: TWebhookSecretRecord, previous: TWebhookSecretRecord | undefined): Promise<void>;
}

/**
 * Encrypts secrets that must be recoverable (the webhook secret signs every call); not to be
 * confused with the seal of PDFs. `context` is bound to the ciphertext (KMS encryption context,
 * AES-GCM additional data): decrypting with any other context fails, so an encrypted secret
 * copied to another account's item cannot be read.
 */
export interface TSecretCipher {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

/** The event's own list keeps this many attempts; the deliveries log keeps every one. */
export const MAX_DELIVERIES_SHOWN = 20;

export interface TWebhookEventStore {
  /** Logs the event unless one with its id exists; either way answers the stored one. */
  createOnce(event: TWebhookEvent): Promise<{ created: boolean; event: TWebhookEvent }>;
  get(accountId: string, id: string): Promise<TWebhookEvent | undefined>;
  markQueued(event: TWebhookEvent): Promise<void>;
  /** Keeps the attempt in the deliveries log and updates its event's status, success and list. */
  recordDelivery(delivery: TWebhookDelivery): Promise<void>;
  getDelivery(accountId: string, id: string): Promise<TWebhookDelivery | undefined>;
  /** Newest first. */
  listEvents(accountId: string, filter: TWebhookEventFilter, page: TPage): Promise<TPageOf<TWebhookEvent>>;
  /** Newest first. */
  listDeliveries(
    accountId: string,
    filter: TWebhookDeliveryFilter,
    page: TPage,
  ): Promise<TPageOf<TWebhookDelivery>>;
}

/** POSTs a webhook call; see shared/adapters/fetch/webhook-caller.ts. Never throws for the receiver's faults. */
export interface TWebhookCaller {
  post(url: string, headers: [string, string][], body: string): Promise<TWebhookCallResult>;
}

export interface TWebhookCallResult {
  /** HTTP status of the answer, 0 when there was none. */
  status: number;
  /** A 2xx answer within the deadline. */
  ok: boolean;
  /** Empty on success, else the reason, for the sender's delivery log. */
  message: string;
}
