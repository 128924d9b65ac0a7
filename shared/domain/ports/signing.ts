// One signer's side of a bundle: links, sessions, values and identity checks.
import type { TBundle, TDocument } from '../bundles/bundle';
import type { TKioskHost } from '../signing/in-person';
import type { TSigningRecord } from '../signing/signing-record';

/**
 * What a signer holds, kept only as a hash: a link (emailed or texted, reusable), an embedded
 * signing URL or a kiosk URL (single use each) or a session a link was exchanged for
 * (docs/signer-api.md).
 */
export interface TSigningToken {
  hash: string;
  accountId: string;
  bundleId: string;
  packetId: string;
  kind: 'embed' | 'kiosk' | 'link' | 'session';
  expires: string;
  /** Set when an embedded or kiosk URL was exchanged for a session. */
  usedAt?: string;
  /**
   * A kiosk URL's host (who made it and holds the device); a session opened with one carries it
   * too, and ends as soon as its signer can no longer sign (shared/domain/signing/in-person.ts).
   */
  kiosk?: TKioskHost;
  /**
   * A session's: the kind of link it was opened with. Only a session opened with a signing link
   * (the signer's own, sent to them) offers the signed copies on its page; an embedded or kiosk
   * link's device may be someone else's.
   */
  openedWith?: 'embed' | 'kiosk' | 'link';
  /**
   * The packet's signer generation it was issued for (absent: 0). Once the packet is handed to
   * another signer, the earlier generation's links and sessions open nothing.
   */
  generation?: number;
}

/** Where a link points: what a link never changes once written (only its use is marked). */
export type TLinkTarget = Pick<TSigningToken, 'accountId' | 'bundleId' | 'packetId' | 'kind' | 'kiosk'>;

export interface TSigningTokenStore {
  create(token: TSigningToken): Promise<void>;
  get(hash: string): Promise<TSigningToken | undefined>;
  /**
   * Where link `hash` points, when this function instance has read the link already; undefined
   * otherwise. No request: a hint, never a proof that the link is valid.
   */
  targetOf(hash: string): TLinkTarget | undefined;
  /** Marks a single-use token used; false when it already was. */
  consume(hash: string, at: string): Promise<boolean>;
}

/** One signer's side of a bundle: values filled, authentication, consent, steps (evidence). */
export interface TSigningRecordStore {
  get(accountId: string, bundleId: string, packetId: string): Promise<TSigningRecord | undefined>;
  /** Every packet's record of the bundle. */
  all(accountId: string, bundleId: string): Promise<TSigningRecord[]>;
  /**
   * The bundle, its stored documents (every revision, as `TBundleStore.documents` reads them) and
   * every packet's record, in one consistent read: what a signer call that checks fields needs.
   */
  withBundle(
    accountId: string,
    bundleId: string,
  ): Promise<{ bundle?: TBundle; documents: TDocument[]; records: TSigningRecord[] }>;
  /** `previous` undefined: create (fails if one exists); else replace if its version still holds. */
  save(record: TSigningRecord, previous: TSigningRecord | undefined): Promise<void>;
}

/** Checks images of an identity document; the local provider only records them as collected. */
export interface TIdVerifier {
  verify(input: { front: string; back: string; name: string }): Promise<{
    status: 'collected' | 'verified' | 'rejected';
    provider: string;
    reference: string;
  }>;
}

/**
 * What a function instance keeps of a session's signer between the session's calls: the context
 * the last call that read everything (the bundle, its documents, every record) ended with. A
 * finish starts from it instead of reading it all again: its one write is conditional on the
 * bundle's and the record's versions, which is the check that nothing moved on meanwhile (a
 * finish checks the signer's own values and those of signers who finished, whose records their
 * consent froze and whose finishing changed the bundle). Keyed by the session's hash; `T` is
 * the signer's context (TSignerContext, which names this store: generic, so neither file needs
 * the other). Made by shared/adapters/kept-signers.ts.
 */
export interface TKeptSigners<T> {
  keep(sessionHash: string, ctx: T): void;
  /** The context kept for the session, taken (a second call finds none), if not too old. */
  take(sessionHash: string): T | undefined;
  forget(sessionHash: string): void;
}
