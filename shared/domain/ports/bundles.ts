// The Bundle aggregate and its lists.
import type { TBundle, TBundleEvent, TBundleStatus, TDocument } from '../bundles/bundle';
import type { TDayRange } from '../day-range';
import type { TPage, TPageOf } from '../paging';
import type { TSigningRecord } from '../signing/signing-record';

/** What a bundle list returns, in which order; every filter given must match. */
export interface TBundleFilter {
  /** Every whitespace-separated word starts a word of the bundle or its signers. */
  search?: string;
  /** Any of these; an empty list matches nothing. */
  statuses?: TBundleStatus[];
  /** Every one of these tags. */
  tags?: string[];
  /** At least one of these tags. */
  anyTags?: string[];
  /** A document of the bundle was made from this document template. */
  template?: string;
  created?: TDayRange;
  sent?: TDayRange;
  completed?: TDayRange;
  /** Default: newest created first. Bundles without the date come last either way. */
  ordering?: { by: 'created' | 'sent' | 'completed'; descending: boolean };
}

/**
 * The documents a bundle names, in its order, from document items stored under it: how
 * `TBundleStore.documents` answers, and how a signer's session lists the documents it read.
 */
export const inBundleOrder = (named: Pick<TDocument, 'key' | 'rev'>[], stored: TDocument[]): TDocument[] => {
  // A draft whose fields were saved again has other copies of its documents: the bundle's own rev.
  const copy = (d: Pick<TDocument, 'key' | 'rev'>) => `${d.key}#${d.rev ?? ''}`;
  const byKey = new Map(stored.map((d) => [copy(d), d]));
  return named.map((d) => byKey.get(copy(d))).filter((d) => d !== undefined);
};

/**
 * A signer's record written with the bundle, as one write: both or neither, each conditional on
 * the version it was read at (`previous`; none for a record not stored yet).
 */
export interface TRecordAlongside {
  record: TSigningRecord;
  previous: TSigningRecord | undefined;
}

/** Which file a bundle's document is, as a function instance last saw it (documentsSeen). */
export type TDocumentSeen = Pick<TDocument, 'key' | 'blobKey' | 'size'>;

export interface TBundleStore {
  /**
   * Documents, packet lookups and person links first, the bundle last: it appears whole or not at
   * all. A ConflictError when a Person it names was erased meanwhile (or its link withdrawn by
   * that erasure): the bundle is then not written.
   */
  create(bundle: TBundle, documents: TDocument[]): Promise<void>;
  get(accountId: string, id: string): Promise<TBundle | undefined>;
  /**
   * The bundle's documents as this function instance last read them with `get`, if it did: a
   * hint for starting a read early (an opening's first document), never an answer. Whoever
   * takes it checks it against the documents it reads itself.
   */
  documentsSeen?(accountId: string, id: string): TDocumentSeen[] | undefined;
  /**
   * Replaces the bundle if `previous.version` still holds, with the lookup items of the terms it
   * changed (none for most changes). `alongside`, when given, is written in the same write as
   * the bundle: a lost race of either is a ConcurrentUpdateError and writes neither.
   */
  save(bundle: TBundle, previous: TBundle, alongside?: TRecordAlongside): Promise<void>;
  /**
   * The bundle's documents, in its order; given only the bundle's ids (read beside the bundle),
   * every document item stored under it, for the caller to take the bundle's own from.
   */
  documents(
    bundle: Pick<TBundle, 'accountId' | 'id'> & Partial<Pick<TBundle, 'documents'>>,
  ): Promise<TDocument[]>;
  /**
   * Writes copies of the bundle's documents (each with its `rev`), which nothing reads until a
   * save of the bundle names that rev; a draft's fields change this way (save-draft-fields.ts).
   */
  putDocuments(bundle: Pick<TBundle, 'accountId' | 'id'>, documents: TDocument[]): Promise<void>;
  /** Deletes those copies of the bundle's documents (ones no longer named, or never named). */
  deleteDocuments(bundle: Pick<TBundle, 'accountId' | 'id'>, documents: TDocument[]): Promise<void>;
  /** Every audit event, oldest first, including those moved out of the bundle item. */
  events(bundle: TBundle): Promise<TBundleEvent[]>;
  findPacket(packetId: string): Promise<{ accountId: string; bundleId: string } | undefined>;
  list(accountId: string, filter: TBundleFilter, page: TPage): Promise<TPageOf<TBundle>>;
  /**
   * Every bundle of the account, read consistently from the account's own items (not from a
   * list, which may lag a write): it sees every change of a bundle that finished before it.
   */
  allOfAccount(accountId: string): Promise<TBundle[]>;
  /** Claims `customKey` for the bundle; false when another bundle of the account holds it. */
  claimCustomKey(accountId: string, customKey: string, bundleId: string): Promise<boolean>;
  /** Gives the claim up, if `bundleId` still holds it. */
  releaseCustomKey(accountId: string, customKey: string, bundleId: string): Promise<void>;
  /**
   * Links a Person to the bundle (a packet handed to them); written before the bundle names them.
   * A ConflictError when the Person was erased meanwhile.
   */
  linkPerson(accountId: string, personId: string, bundleId: string): Promise<void>;
  /**
   * An erasure's answer to a person link whose bundle it did not find: withdraws the bundle's
   * creation unless its create has confirmed its Persons (true: withdrawn, or no create under
   * way, and none will write it; false: confirmed, the bundle is being written).
   */
  withdrawCreation(accountId: string, bundleId: string): Promise<boolean>;
  /** Ids of bundles that have a packet linked to the person (some may no longer exist). */
  bundlesOfPerson(accountId: string, personId: string): Promise<string[]>;
  /** Empties the outbox of the bundle as published, unless the bundle changed since (its version). */
  clearOutbox(bundle: TBundle): Promise<void>;
  /** Bundles whose outbox holds an event older than `before` (ISO time), oldest first. */
  withPendingOutbox(before: string, limit: number): Promise<{ accountId: string; id: string }[]>;
  /** Bundles with work due (expiry, a reminder) at or before `upTo` (ISO time), earliest first. */
  due(upTo: string, limit: number): Promise<{ accountId: string; id: string }[]>;
}
