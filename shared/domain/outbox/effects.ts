// What each audit event sets off once the write that appends it succeeds: the one table to read
// to learn what a cancel, a send or a signature causes. The write notes the event's webhook
// event, message and evidence job in the bundle's outbox (outbox.ts, withOutbox), and the
// outbox relay (functions/outbox-relay/, publish-events.ts) then logs and queues them; each
// job's own file under jobs/ says how its worker runs it. An event kind missing from the table
// does not compile (a variant, such as packetReadyInPerson, is stored as its kind and sets off
// what that kind does).

import type { TWebhookEventType } from '#shared/schemas/vocabulary';
import { codeOf, type TCodedKind } from '../bundles/event-kinds';
import type { TCountMetric } from '../ports/metrics';
import type { TDocumentJobType, TNotificationType } from './outbox-entry';

/** The counts a bundle reaching a milestone adds (see milestones-store.ts for when). */
export type TMilestone = Extract<TCountMetric, 'BundlesSent' | 'BundlesCompleted'>;

export interface TEffects {
  /** The webhook event it fires, to every webhook subscribed to it. */
  readonly webhook?: TWebhookEventType;
  /** The message the notifications worker sends (jobs/notifications.ts). */
  readonly notify?: TNotificationType;
  /** The evidence the document worker makes (jobs/document-jobs.ts). */
  readonly document?: TDocumentJobType;
  /**
   * The metric counted when the write reaches the milestone this event marks. It is counted on
   * the bundle's status, not on the event, so a write that lost its race counts nothing.
   */
  readonly milestone?: TMilestone;
}

const none: TEffects = {};

export const EFFECTS = {
  created: none,
  drafted: none,
  sent: { webhook: 'bundle_sent', milestone: 'BundlesSent' },
  updated: none,
  tagsChanged: none,
  cancelled: { webhook: 'bundle_cancelled' },
  /** A signer's turn came: their signing request. */
  packetSent: { notify: 'signing_request' },
  packetReady: none,
  packetUpdated: none,
  reminderSent: { notify: 'reminder' },
  messageFailed: none,
  messageBounced: none,
  expired: none,
  viewed: { webhook: 'packet_viewed' },
  packetCompleted: { webhook: 'packet_complete' },
  /**
   * The sender is told. A decline also appends the bundle's own `cancelled`, so it fires both
   * packet_declined and bundle_cancelled, as the spec's decline rules say.
   */
  declined: { webhook: 'packet_declined', notify: 'declined' },
  /** An approver's or a viewer's packet is done: to webhooks, as a signer's finish is. */
  approved: { webhook: 'packet_complete' },
  read: { webhook: 'packet_complete' },
  /** Told as a decline (its own `cancelled` follows), so existing clients see a decline. */
  rejected: { webhook: 'packet_declined', notify: 'declined' },
  inPerson: none,
  /** The new signer gets their link through the packet's `packetSent`. */
  reassigned: { webhook: 'packet_reassigned' },
  /** The final documents and certificates are made. */
  completed: { webhook: 'bundle_complete', document: 'final', milestone: 'BundlesCompleted' },
  docsReady: { webhook: 'bundle_docs_ready', notify: 'docs_ready' },
  failed: { webhook: 'bundle_error' },
  evidenceDelayed: none,
  interimRequested: { document: 'interim' },
  paymentStarted: none,
  paymentPaid: none,
  paymentFailed: none,
  paymentRefunded: none,
  paymentRefundFailed: none,
  legalHoldSet: none,
  legalHoldReleased: none,
  contentDeleted: none,
} as const satisfies Record<TCodedKind, TEffects>;

/** The effects by the two-letter code a stored event carries. */
const EFFECTS_OF_CODE: ReadonlyMap<string, TEffects> = new Map(
  (Object.keys(EFFECTS) as TCodedKind[]).map((kind) => [codeOf(kind), EFFECTS[kind]]),
);

/** What an event of code `code` sets off; nothing for a code no kind has. */
export const effectsOf = (code: string): TEffects => EFFECTS_OF_CODE.get(code) ?? none;

/** The milestones the table names, in its order. */
export const MILESTONES: readonly TMilestone[] = Object.values(EFFECTS as Record<string, TEffects>).flatMap(
  (e) => (e.milestone ? [e.milestone] : []),
);
