// What a bundle's outbox holds and what it is published as (outbox.ts tells how): the entries a
// change leaves, and the jobs of the notifications and documents queues made from them. Types only,
// so the bundle entity can name its outbox without depending on how it is published.
import type { TWebhookEventType } from './webhook';

/** Messages to people that a change causes; the notifications worker sends them. */
export type TNotificationType = 'signing_request' | 'reminder' | 'docs_ready' | 'declined';

/** Evidence work a change causes; the document worker does it (shared/domain/evidence/). */
export type TDocumentJobType = 'final' | 'interim';

/**
 * What a change must cause after its write, waiting to be published; `seq` is its audit event's
 * place in the bundle's history. `type`: the webhook event it fires; `notify`: the message it sends.
 */
export interface TOutboxEntry {
  seq: number;
  type?: TWebhookEventType;
  notify?: TNotificationType;
  /** The evidence it makes: the final documents and certificates, or interim files. */
  document?: TDocumentJobType;
  /** When the state change happened (the audit event's timestamp). */
  date: string;
  packetId?: string;
}

/** A job of the notifications queue, published from an outbox entry with `notify`. */
export interface TNotificationJob {
  type: TNotificationType;
  accountId: string;
  bundleId: string;
  packetId?: string;
  /** The audit event's place in the bundle's history: with the bundle, what the worker de-duplicates on. */
  seq: number;
  date: string;
}

/** A job of the documentJobs queue, published from an outbox entry with `document`. */
export interface TDocumentJob {
  type: TDocumentJobType;
  accountId: string;
  bundleId: string;
  /** The audit event's place in the bundle's history (`co` or `if`). */
  seq: number;
  date: string;
}
