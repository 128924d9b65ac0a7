// What a bundle's outbox holds and what it is published as (publish-events.ts tells how): the
// entries a change leaves (effects.ts says which; the jobs made from them are declared under
// jobs/). Nothing here depends on how they are published, so the bundle can name its outbox.
import type { TWebhookEventType } from '#shared/schemas/vocabulary';

/** Messages to people that a change causes; the notifications worker sends them (jobs/notifications.ts). */
export const NOTIFICATION_TYPES = ['signing_request', 'reminder', 'docs_ready', 'declined'] as const;
export type TNotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Evidence work a change causes; the document worker does it (jobs/document-jobs.ts). */
export const DOCUMENT_JOB_TYPES = ['final', 'interim'] as const;
export type TDocumentJobType = (typeof DOCUMENT_JOB_TYPES)[number];

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
