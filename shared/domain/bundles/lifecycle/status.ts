// The statuses of a bundle and of its signers (packets), named once: the two-letter codes are the
// wire's (docs/api-decisions.md, Enumerations), and domain code uses the names. What each status
// allows is decided here too; how a bundle moves between them is transitions.ts.

export const BUNDLE = {
  /** Shown while the documents of a new bundle are still being processed. */
  pending: 'pe',
  draft: 'dr',
  sent: 'se',
  /** A signer has opened it. */
  started: 'st',
  complete: 'co',
  cancelled: 'ca',
  expired: 'ex',
  failed: 'fa',
} as const;

export const PACKET = {
  /** Not sent yet: a draft, or waiting for earlier signers. */
  new: 'ne',
  /** An embedded or in-person (kiosk) signer whose turn it is; nothing is sent. */
  ready: 're',
  sent: 'se',
  /** The signer opened their link. */
  started: 'st',
  complete: 'co',
  /** Cancelled with the bundle, or declined by the signer. */
  cancelled: 'ca',
  expired: 'ex',
  failed: 'fa',
} as const;

export type TBundleStatus = (typeof BUNDLE)[keyof typeof BUNDLE];
export type TPacketStatus = (typeof PACKET)[keyof typeof PACKET];

const FINISHED_BUNDLE: readonly TBundleStatus[] = [
  BUNDLE.complete,
  BUNDLE.cancelled,
  BUNDLE.expired,
  BUNDLE.failed,
];
const FINISHED_PACKET: readonly TPacketStatus[] = [
  PACKET.complete,
  PACKET.cancelled,
  PACKET.expired,
  PACKET.failed,
];
/** Signers who have not finished: ending a bundle takes them with it. */
const OPEN_PACKET: readonly TPacketStatus[] = [PACKET.new, PACKET.ready, PACKET.sent, PACKET.started];

/** Nothing more happens to a finished bundle's signing (complete, cancelled, expired, failed). */
export const isFinished = (status: TBundleStatus) => FINISHED_BUNDLE.includes(status);

export const isDraft = (status: TBundleStatus) => status === BUNDLE.draft;

/** Out with its signers and not finished: signing, reminders and expiry apply (`se`, `st`). */
export const isOut = (status: TBundleStatus) => status === BUNDLE.sent || status === BUNDLE.started;

export const isBundleComplete = (status: TBundleStatus) => status === BUNDLE.complete;

/** A signer who finished: their values are final and count for everyone. */
export const hasSigned = (status: TPacketStatus) => status === PACKET.complete;

export const isPacketFinished = (status: TPacketStatus) => FINISHED_PACKET.includes(status);

export const isPacketOpen = (status: TPacketStatus) => OPEN_PACKET.includes(status);

/** A signer whose turn has come, by message (`se`) or embedded (`re`), or who opened it (`st`). */
export const isPacketUp = (status: TPacketStatus) =>
  status === PACKET.sent || status === PACKET.ready || status === PACKET.started;

/** A signer who was sent a message and has it in hand (reminders, notifications): `se`, `st`. */
export const isPacketWaiting = (status: TPacketStatus) => status === PACKET.sent || status === PACKET.started;

export const hasOpened = (status: TPacketStatus) => status === PACKET.started;

export const isPacketCancelled = (status: TPacketStatus) => status === PACKET.cancelled;
export const isPacketExpired = (status: TPacketStatus) => status === PACKET.expired;
export const isPacketFailed = (status: TPacketStatus) => status === PACKET.failed;
export const isPacketReady = (status: TPacketStatus) => status === PACKET.ready;
export const isBundleCancelled = (status: TBundleStatus) => status === BUNDLE.cancelled;
export const isBundleExpired = (status: TBundleStatus) => status === BUNDLE.expired;
export const isBundleFailed = (status: TBundleStatus) => status === BUNDLE.failed;
