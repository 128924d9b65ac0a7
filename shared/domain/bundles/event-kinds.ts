// Audit event kinds, two letters each (the upstream codes are not published; these are ours,
// documented in ARCHITECTURE.md). The same events drive webhooks. Each kind is declared once,
// here, with its code: the code is what is stored and what the API answers, so it never changes.
// Who acted is not a kind: every event records its actor (actor.ts).

export const EVENT_KINDS = {
  created: { code: 'cr', text: 'Bundle created' },
  drafted: { code: 'dr', text: 'Bundle saved as a draft' },
  sent: { code: 'se', text: 'Bundle sent' },
  updated: { code: 'up', text: 'Bundle updated' },
  tagsChanged: { code: 'tg', text: 'Tags changed' },
  cancelled: { code: 'ca', text: 'Bundle cancelled' },
  packetSent: { code: 'ps', text: 'Signing request sent' },
  packetReady: { code: 'pr', text: 'Ready for embedded signing' },
  // Not a kind of its own: `pr` for a signer who signs in person on the sender's device
  // (deliver_via kiosk), stored with these words instead (lifecycle/transitions.ts).
  packetReadyInPerson: { variantOf: 'packetReady', text: 'Ready for signing in person' },
  packetUpdated: { code: 'pu', text: 'Signer updated' },
  reminderSent: { code: 'rm', text: 'Reminder sent' },
  // The notifications worker (shared/domain/notifications/) appends these; no webhook event.
  messageFailed: { code: 'nf', text: 'Message could not be sent' },
  messageBounced: { code: 'nb', text: 'Message not delivered' },
  // The scheduler (shared/domain/scheduler/) appends this; the spec has no webhook event for it.
  expired: { code: 'ex', text: 'Bundle expired' },
  // Signing and evidence append these; outbox/effects.ts says what they set off.
  viewed: { code: 'pv', text: 'Signer opened the documents' },
  packetCompleted: { code: 'pc', text: 'Signer finished signing' },
  declined: { code: 'pd', text: 'Signer declined to sign' },
  // What an approver or a viewer does instead of signing (packet-roles.ts): the packet is done
  // (`ap`, `rd`; webhook packet_complete), or an approver's rejection ends the bundle as a decline
  // does (`rj`; webhooks packet_declined and bundle_cancelled, so existing clients see a decline).
  approved: { code: 'ap', text: 'Approver approved the documents' },
  rejected: { code: 'rj', text: 'Approver rejected the documents' },
  read: { code: 'rd', text: 'Viewer read the documents' },
  // A kiosk link was opened on the host's device (who hosted, which device); no webhook event.
  inPerson: { code: 'ki', text: 'Signing in person started' },
  // The signer handed the packet to another person (signing/reassign-packet.ts): packet_reassigned.
  reassigned: { code: 'ra', text: 'Signer handed signing to someone else' },
  completed: { code: 'co', text: 'Bundle complete' },
  docsReady: { code: 'dk', text: 'Final documents ready' },
  failed: { code: 'fa', text: 'Bundle failed' },
  // A final-documents job failed and waits for its next attempt (the reason); no webhook event.
  evidenceDelayed: { code: 'ed', text: 'Final documents delayed' },
  // PUT /bundles/{id}/files/ appends this; outbox/effects.ts turns it into an interim document job.
  interimRequested: { code: 'if', text: 'Interim files requested' },
  // Bundle payments (shared/domain/payments/); no webhook event in the spec.
  paymentStarted: { code: 'pi', text: 'Payment started' },
  paymentPaid: { code: 'pp', text: 'Payment received' },
  paymentFailed: { code: 'pf', text: 'Payment failed' },
  // `pr` is taken (packetReady): `pb` for "paid back".
  paymentRefunded: { code: 'pb', text: 'Payment refunded' },
  // The processor could not give the money back after all: the payment stands.
  paymentRefundFailed: { code: 'px', text: 'Refund failed' },
  // Retention (retention.ts): a legal hold set or released by an admin or the operator, and a
  // part of the documents deleted by the account's policy (the parts deleted). No webhook event:
  // BlueInk has none, and clients know bundle events by `kind` and skip the ones they do not know.
  legalHoldSet: { code: 'lh', text: 'Legal hold set' },
  legalHoldReleased: { code: 'lx', text: 'Legal hold released' },
  contentDeleted: { code: 'dl', text: 'Documents deleted by the retention policy' },
} as const satisfies Record<string, { code: string; text: string } | { variantOf: string; text: string }>;

/**
 * What the scheduler's reminders write after the signer's name (`Ann Lee (automatic)`). Words
 * only: whether a reminder was automatic is its actor (actor.ts), never this text.
 */
export const AUTOMATIC_REMINDER_MARK = ' (automatic)';

/** A kind's name (`reminderSent`), as the code and the catalogs (`events.<name>`) call it. */
export type TEventKind = keyof typeof EVENT_KINDS;

type TKindOf = typeof EVENT_KINDS;
/** The kinds with a code of their own (every name but a variant's). */
export type TCodedKind = { [K in TEventKind]: TKindOf[K] extends { code: string } ? K : never }[TEventKind];
/** A stored kind code (`rm`): the union of every kind's code, each declared once above. */
export type TEventCode = TKindOf[TCodedKind]['code'];

/** The code a kind is stored under (a variant's is its kind's). */
export function codeOf(kind: TEventKind): TEventCode {
  const k: { code: TEventCode } | { variantOf: TCodedKind } = EVENT_KINDS[kind];
  return 'code' in k ? k.code : EVENT_KINDS[k.variantOf].code;
}
