// An account's export: one record per account (the latest export), moved through its states by
// one conditional write each, and what its archive holds. The archive is a .tar.gz in the
// documents bucket under exports/<account>/, encrypted as the account's documents are, removed
// by the bucket's lifecycle after EXPORT_KEPT_DAYS; its link is presigned for LINK_SECONDS.

export type TExportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface TExport {
  id: string;
  accountId: string;
  status: TExportStatus;
  created: string;
  /** Who asked: a user of the account, or the operator. */
  requestedBy: { type: 'user'; userId: string } | { type: 'operator' };
  /** Files written into the archive so far, of `total`. */
  progress: { done: number; total: number };
  /** A worker that stopped without a word leaves the account free to start again after this. */
  leaseUntil: string;
  archive?: { key: string; size: number; sha256: string; files: number; records: number };
  finished?: string;
  error?: string;
  version: number;
}

/** How long a started export keeps the account from starting another (a stuck worker's limit). */
export const EXPORT_LEASE_MS = 60 * 60_000;
/** How long a download link lives. */
export const LINK_SECONDS = 15 * 60;
/** How long the bucket keeps an archive (infra/constructs/storage.ts, the lifecycle rule). */
export const EXPORT_KEPT_DAYS = 7;
/** Where exports live in the documents bucket: outside accounts/, so retention never reaches them. */
export const EXPORTS_PREFIX = 'exports/';
export const archiveKeyOf = (accountId: string, exportId: string) =>
  `${EXPORTS_PREFIX}${accountId}/${exportId}.tar.gz`;

/**
 * The archive's layout: the table's records, each stored file under files/, then the manifest,
 * last because its hashes are taken as the files stream into the archive. Readers take it from
 * anywhere (archives of earlier versions have it first).
 */
export const MANIFEST_PATH = 'manifest.json';
export const RECORDS_PATH = 'records.jsonl';
export const FILES_DIR = 'files/';
export const ARCHIVE_FORMAT = 'open-esign-account-export';
export const ARCHIVE_FORMAT_VERSION = 1;

export interface TManifestFile {
  /** Its path in the archive. */
  path: string;
  /** Its key in the documents bucket, which the import restores. */
  key: string;
  sha256: string;
  size: number;
}

/** A file the retention policy deleted: its hash and date stay, as they do in the service. */
export interface TDeletedFile {
  bundleId: string;
  part: 'originals' | 'finals' | 'images';
  name: string;
  sha256?: string;
  deletedAt: string;
}

export interface TManifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  accountId: string;
  exportId: string;
  created: string;
  /** records.jsonl: the stored items (bundles, events, evidence, persons, templates, webhooks…). */
  records: { path: string; count: number; sha256: string; size: number };
  /** The ids of the account's bundles. */
  bundles: string[];
  files: TManifestFile[];
  deleted: TDeletedFile[];
  /** What the export leaves out on purpose, so an importer knows what to set again. */
  notExported: string[];
}

/** Said in every manifest and in the docs: an importer must set these up again. */
export const NOT_EXPORTED = [
  'The webhook signing secret: it is never written out in clear. The new deployment makes a new one on first use; read it with GET /webhooks/secret/ and give it to your receivers.',
  'API keys, console sessions and passkeys: make new keys with create-key on the new deployment.',
  "The account's own documents key: a KMS key of the old deployment. Restored files go under the new deployment's documents key; run account-key-create there for a key of the account's own.",
  'Signing links already sent: they belong to the old deployment. Send reminders from the new one for bundles still out for signing.',
  'Webhook delivery logs, notification records and the security log.',
];
