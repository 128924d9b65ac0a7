// A signer's side of a bundle, one record per packet, kept apart from the bundle item so that
// hundreds of field values never weigh on it. Written conditionally on `version`.

import { signerGeneration, type TBundle, type THandover, type TPacket } from '../bundles/bundle';
import { bundleObjectsPrefix } from '../bundles/object-keys';
import type { TInPerson } from './in-person';

/**
 * Where everything a signer gives for a bundle lives in the documents bucket: drawn marks,
 * attachments, selfies and ID photos (save-values.ts, upload-attachment.ts, image-auth.ts), under
 * the bundle's folder of its account.
 */
export const signingObjectPrefix = (accountId: string, bundleId: string) =>
  `${bundleObjectsPrefix(accountId, bundleId)}signing/`;

/** A field's value as this signer left it, with who, when and from where. */
export interface TFieldValue {
  value: string;
  filledAt: string;
  ip: string;
  userAgent: string;
  /** The drawn signature or initials, or the attachment, in the documents bucket. */
  blobKey?: string;
  size?: number;
  contentType?: string;
}

/** A step of the signer, as evidence: what, when, from which address and browser. */
export interface TSigningStep {
  action: string;
  at: string;
  ip: string;
  userAgent: string;
  detail?: string;
}

export interface TSmsAuth {
  phone: string;
  /** SHA-256 of the current code; cleared when used up. */
  codeHash?: string;
  codeExpires?: string;
  wrongAttempts: number;
  /** When codes were sent, latest last (the resend limits read these). */
  sentAt: string[];
  passedAt?: string;
}

export interface TImageAuth {
  blobKeys: string[];
  at: string;
  ip: string;
  userAgent: string;
  /** For the ID step: what the verification provider answered. */
  result?: { status: string; provider: string; reference: string };
  passedAt?: string;
}

export interface TSigningRecord {
  accountId: string;
  bundleId: string;
  packetId: string;
  /** `<doc_key>/<field_key>` → value. */
  values: Record<string, TFieldValue>;
  auth: { sms?: TSmsAuth; selfie?: TImageAuth; id?: TImageAuth };
  steps: TSigningStep[];
  consentAt?: string;
  declineReason?: string;
  /**
   * The handover the signer asked for, written before the bundle changes hands (decision.ts): a
   * record holding it is no longer finished or declined. It ends with the generation it was for.
   */
  handingOn?: THandover;
  /**
   * The handovers the signer asked for that the bundle then refused (reassign-packet.ts), latest
   * last: their `handed on` steps stay in the record, and the evidence reads who and why from
   * here to say those steps in its reader's language.
   */
  handedBack?: THandover[];
  /**
   * The language the signer chose on the page: kept with the signer, not the browser, so the same
   * link opened on another device speaks it too. It wins over the packet's and the bundle's.
   */
  language?: string;
  /** Signed in person (deliver_via kiosk): the host and device of the latest kiosk link opened. */
  inPerson?: TInPerson;
  /**
   * The packet's signer generation this record belongs to (absent: 0). After a handover the
   * values, checks and consent of the earlier signer no longer count (heldRecord).
   */
  generation?: number;
  version: number;
}

/** The step log keeps the latest this many steps (a signer saving a field at a time adds many). */
export const MAX_STEPS = 500;

export const valueKey = (docKey: string, fieldKey: string) => `${docKey}/${fieldKey}`;

export function emptyRecord(accountId: string, bundleId: string, packetId: string): TSigningRecord {
  return { accountId, bundleId, packetId, values: {}, auth: {}, steps: [], version: 0 };
}

/**
 * The record as the packet's current signer holds it. One an earlier signer left before handing
 * the packet on counts as empty: their values, identity checks, consent and language are not the
 * new signer's. Its step log (the earlier signer's steps, ending with the handover) stays as
 * evidence, and its version, so the next save replaces it conditionally.
 */
export function heldRecord(record: TSigningRecord, packet: Pick<TPacket, 'handovers'>): TSigningRecord {
  const generation = signerGeneration(packet);
  if ((record.generation ?? 0) === generation) return record;
  return {
    ...emptyRecord(record.accountId, record.bundleId, record.packetId),
    steps: record.steps,
    // The steps stay, so do the words their handovers are read by.
    ...(record.handedBack ? { handedBack: record.handedBack } : {}),
    generation,
    version: record.version,
  };
}

/** Every record of the bundle as its packet's current signer holds it (heldRecord). */
export function currentRecords(
  records: TSigningRecord[],
  bundle: Pick<TBundle, 'packets'>,
): TSigningRecord[] {
  return records.map((r) => {
    const packet = bundle.packets.find((p) => p.id === r.packetId);
    return packet ? heldRecord(r, packet) : r;
  });
}
