// The transactional outbox of webhook events. A state change of a bundle appends its audit
// events; the ones that are webhook events are also noted in the bundle's `outbox`, in the same
// conditional write. Whatever happens after that write (a crash, a timeout, a retried request),
// the note is there until a publisher has logged and queued the event, and a retried change that
// lost its race wrote nothing at all: each change is published once.

import type { TWebhookEventType } from '../../schemas/vocabulary';
import type { TBundle } from '../bundles/bundle';
import type { TDocumentJobType, TNotificationType, TOutboxEntry } from './outbox-entry';

export type {
  TDocumentJob,
  TDocumentJobType,
  TNotificationJob,
  TNotificationType,
  TOutboxEntry,
} from './outbox-entry';

/**
 * Audit event kind → the webhook event it fires (see event-kinds.ts). Kinds not listed fire none.
 * A declined signer's packet event comes with the bundle's own `ca`, so a decline fires both
 * packet_declined and bundle_cancelled, as the spec's decline rules say.
 */
export const WEBHOOK_TYPE_OF_KIND: Readonly<Record<string, TWebhookEventType>> = {
  se: 'bundle_sent',
  ca: 'bundle_cancelled',
  co: 'bundle_complete',
  dk: 'bundle_docs_ready',
  fa: 'bundle_error',
  pv: 'packet_viewed',
  pc: 'packet_complete',
  pd: 'packet_declined',
  ra: 'packet_reassigned',
};

/**
 * Audit event kind → the message it sends: a signing request when a signer's turn comes (`ps`),
 * a reminder (`rm`), the documents-ready notice (`dk`), and the sender told of a decline (`pd`).
 */
export const NOTIFICATION_OF_KIND: Readonly<Record<string, TNotificationType>> = {
  ps: 'signing_request',
  rm: 'reminder',
  dk: 'docs_ready',
  pd: 'declined',
};

/**
 * Audit event kind → the evidence job it queues: the bundle complete (`co`) makes the final
 * documents and certificates; an interim request (`if`) makes interim files.
 */
export const DOCUMENT_JOB_OF_KIND: Readonly<Record<string, TDocumentJobType>> = {
  co: 'final',
  if: 'interim',
};

/**
 * `next` with the webhook events and notifications among its new audit events added to its outbox. `previous` is
 * the state the change was applied to (undefined for a new bundle): events are only ever
 * appended, so the new ones are those past previous's count.
 */
export function withOutbox(previous: TBundle | undefined, next: TBundle): TBundle {
  const before = previous?.events.length ?? 0;
  const base = previous?.archivedEvents ?? 0;
  const added: TOutboxEntry[] = [];
  next.events.slice(before).forEach((e, i) => {
    const type = WEBHOOK_TYPE_OF_KIND[e.kind];
    const notify = NOTIFICATION_OF_KIND[e.kind];
    const document = DOCUMENT_JOB_OF_KIND[e.kind];
    if (!type && !notify && !document) return;
    added.push({
      seq: base + before + i,
      ...(type ? { type } : {}),
      ...(notify ? { notify } : {}),
      ...(document ? { document } : {}),
      date: e.timestamp,
      ...(e.packetId ? { packetId: e.packetId } : {}),
    });
  });
  if (added.length === 0) return next;
  return { ...next, outbox: [...(next.outbox ?? []), ...added] };
}
