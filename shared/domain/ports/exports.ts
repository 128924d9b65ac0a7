// An account's export and import: its export record, the stored items it carries, the archive.
import type { TExport } from '../exports/export';

/** The account's export record (one an account: the latest), each change conditional on `version`. */
export interface TExportStore {
  get(accountId: string): Promise<TExport | undefined>;
  /**
   * Puts a new export in place of the account's last one if that one is finished (done, failed)
   * or its lease ran out before `now`: false when another export holds the account.
   */
  start(record: TExport, now: string): Promise<boolean>;
  /** Writes the record if its stored version is still `record.version - 1` (else ConcurrentUpdateError). */
  save(record: TExport): Promise<void>;
}

/** One stored item of the table, exactly as stored (keys and markers included). */
export type TStoredRecord = Record<string, unknown> & { pk: string; sk: string };

/** How an archived item stands against the table it would be written to. */
export type TRecordStanding = 'absent' | 'same' | 'different';

/** The stored items an export carries, and their import. */
export interface TAccountRecords {
  /**
   * Every item of the account an export carries (bundles with their documents, events, signing
   * records and evidence, sealed files' hash items, packets, persons, templates, webhooks, users,
   * teams, brands, the account), and the ids of its bundles.
   */
  read(accountId: string): Promise<{ records: TStoredRecord[]; bundleIds: string[] }>;
  /** The items stored at these keys, in the order given (undefined where there is none). */
  stored(keys: { pk: string; sk: string }[]): Promise<(TStoredRecord | undefined)[]>;
  /** Writes the record if its key is free: false when it was taken. */
  putIfAbsent(record: TStoredRecord): Promise<boolean>;
}

/** Keys of the documents bucket. */
export interface TBlobLister {
  /** Every object key under `prefix`. */
  list(prefix: string): Promise<string[]>;
  /** Whether an object is stored at `key`. */
  exists(key: string): Promise<boolean>;
}

/**
 * Objects of the documents bucket read and written as streams, so an export or an import holds
 * a few upload parts in memory whatever the account's size.
 */
export interface TBlobStreams {
  /** The object's size and bytes; BlobNotFoundError when there is none. */
  read(key: string): Promise<{ size: number; body: AsyncIterable<Uint8Array> }>;
  /**
   * Stores `body` at `key`, a part at a time (one PutObject when it fits in one part). When the
   * body fails, the upload is aborted and nothing is stored, as when it is longer than `size`.
   * `owner` is the account the object belongs to where its key does not name one (a bundle's
   * files of the earlier layout, outside `accounts/`): it is encrypted as that account's.
   */
  write(
    key: string,
    body: AsyncIterable<Uint8Array>,
    contentType: string,
    size?: number,
    owner?: string,
  ): Promise<void>;
}

/** One file of an archive: its bytes are read once, in turn. */
export interface TArchiveEntry {
  path: string;
  size: number;
  body: AsyncIterable<Uint8Array>;
}

/** The archive's format (a .tar.gz), written and read as streams. */
export interface TArchiver {
  /** The archive's bytes as they are made, its entries in the order given. */
  pack(entries: AsyncIterable<TArchiveEntry>, at: Date): AsyncIterable<Uint8Array>;
  /**
   * Reads an archive within limits, handing each file to `visit` in turn; a file `visit` leaves
   * unread is passed over. A refusal of the format is an Error; `visit`'s own errors come out as thrown.
   */
  read(archive: AsyncIterable<Uint8Array>, visit: (entry: TArchiveEntry) => Promise<void>): Promise<void>;
}
