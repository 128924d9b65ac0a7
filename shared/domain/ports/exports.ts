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

/** One file of an archive. */
export interface TArchiveEntry {
  path: string;
  bytes: Uint8Array;
}

/** The archive's format (a .tar.gz): packs entries, and reads them back within limits. */
export interface TArchiver {
  pack(entries: TArchiveEntry[], at: Date): Promise<Uint8Array>;
  unpack(bytes: Uint8Array): Promise<TArchiveEntry[]>;
}
