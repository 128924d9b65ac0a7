// What the evidence renderers take: plain data, already read from the bundle, the signing
// records and the blobs by the document worker. Geometry as in TField (bundle.ts): percent of the
// displayed page from its top-left corner; pages 1-based. Times are ISO 8601 strings.
import type { TOwnAttachment } from './own-attachment';
import type { TRemovedFromOriginal } from './strip-original';

/** One field's value, to be drawn at its place on the original. */
export interface TStampField {
  /** 1-based. */
  page: number;
  /** Percent of the displayed page, from its top-left corner to the field's top-left corner. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** A TFieldKind (sig ini snm sdt inp txt dat chk cbg sel att apr); others are drawn as text. */
  kind: string;
  value: string;
  /** The field's format: a date format for `dat` / `sdt` (tokens: shared/text/field-dates.js), options for sel / cbg. */
  format: string;
  /** The drawn signature or initials (PNG) for `sig` / `ini` whose value is `drawn`. */
  image?: Uint8Array;
  /** A calculated field: `value` is a number, written as `format` says (shared/text/formula.js). */
  calculated?: boolean;
  options?: string[];
}

/**
 * A message of the catalogs (its key under `evidence.`) with its values: how the evidence says,
 * in its reader's language, what the service stores in English. A value is data, printed as it
 * is, or a message of its own (a number may choose a plural form, as `count`).
 */
export interface TSaid {
  key: string;
  values?: Record<string, string | number | TSaid>;
}

/** What an evidence page prints: data as it is, or a message said in the page's language. */
export type TWords = string | TSaid;

export interface TAuditEntry {
  timestamp: string;
  /** The event's description: as stored (English) when its shape is not known, else its message. */
  description: TWords;
  /** A signer's name, or 'sender' / 'service'. */
  actor?: string;
  ip?: string;
}

export interface TAuditPage {
  /** The language the page is written in (the bundle's; English when absent or unsupported). */
  language?: string;
  bundleId: string;
  label: string;
  documentName: string;
  originalSha256: string;
  /** `role` only for a packet whose request named one (packet-roles.ts). */
  signers: {
    name: string;
    email?: string;
    phone?: string;
    completedAt?: string;
    role?: 'signer' | 'approver' | 'viewer';
  }[];
  events: TAuditEntry[];
  /** The bundle's audit chain head (audit-chain.ts) when the file was made. */
  chainHead: string;
  completedAt?: string;
  /**
   * Common name of the seal certificate, printed in the "sealed by" note. Optional: without it
   * the note says the seal is the service's and names no certificate.
   */
  sealedBy?: string;
}

export interface TFinalInput {
  original: Uint8Array;
  fields: TStampField[];
  audit: TAuditPage;
  isTest: boolean;
  interim: boolean;
  /**
   * A file the document carries inside it (PDF /AF, relationship Data): its evidence record. Made
   * from what was removed from the original when it depends on it.
   */
  attachment?: TOwnAttachment | ((removed: TRemovedFromOriginal[]) => TOwnAttachment);
}

export interface TCertificateInput {
  /** The language the certificate is written in (the signer's; English when absent or unsupported). */
  language?: string;
  bundleId: string;
  label: string;
  signer: {
    name: string;
    email?: string;
    phone?: string;
    packetId: string;
    key: string;
    /** Only for a packet whose request named a role (packet-roles.ts). */
    role?: 'signer' | 'approver' | 'viewer';
    /** Their step in the signing order, when the bundle signs in order in more than one step. */
    step?: TStepInOrder;
  };
  /** Method and result as recorded (English), or their messages; the detail as its message. */
  auth: { method: TWords; result: TWords; at: string; detail?: TWords }[];
  /** Signed in person on the host's device (deliver_via kiosk): who hosted, which device. */
  inPerson?: { host: string; device: string; at: string };
  times: { sent?: string; viewed?: string; consented?: string; signed?: string };
  /**
   * The signing record's steps: `action` as recorded or its message, `detail` what it was about
   * (printed in brackets), as recorded or its message.
   */
  steps: { action: TWords; detail?: TWords; at: string; ip: string; userAgent: string }[];
  documents: { name: string; key: string; originalSha256: string; finalSha256?: string }[];
  /** Each mark the signer made: its label (document, field, key), and its image or typed text. */
  signatureImages: { label: TWords; image?: Uint8Array; typed?: string }[];
  events: TAuditEntry[];
  /** Each time the packet was handed from one signer to another, oldest first (names as labels). */
  handovers?: { from: string; to: string; reason: string; at: string }[];
  chainHead: string;
  isTest: boolean;
  issuedAt: string;
  /** Common name of the seal certificate, for the "sealed by" note (see TAuditPage.sealedBy). */
  sealedBy?: string;
}

/** Who seals: the service's signing certificate and key. */
export interface TSealIdentity {
  /** PKCS #12 (DER) holding the private key and the certificate. */
  p12: Buffer;
  passphrase: string;
  /** PEM, for showing who sealed */
  certificatePem: string;
  commonName: string;
}

export interface TSealOptions {
  reason: string;
  location?: string;
  contactInfo?: string;
  name: string;
}

/** Where a packet stands in the signing order: step `step` of `steps`, with the others in it. */
export interface TStepInOrder {
  step: number;
  steps: number;
  alongside: string[];
}
