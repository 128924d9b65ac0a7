// What a bundle's outbox holds and what it is published as (outbox.ts tells how): the entries a
// change leaves (the jobs made from them are declared in jobs.ts). Types only, so the bundle
// entity can name its outbox without depending on how it is published.
import type { TWebhookEventType } from '../../schemas/vocabulary';
import type { TDocumentJob, TNotificationJob } from './jobs';

/** Messages to people that a change causes; the notifications worker sends them. */
export type TNotificationType = TNotificationJob['type'];

/** Evidence work a change causes; the document worker does it (shared/domain/evidence/). */
export type TDocumentJobType = TDocumentJob['type'];

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

export type { TDocumentJob, TNotificationJob } from './jobs';
