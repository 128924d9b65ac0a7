// Keys of what the document worker keeps: one files record per bundle, and one hash-index item
// per sealed file, declared once.
import type { TBundleFilesRecord, TFileHashEntry } from '../../../domain/evidence/evidence-files';
import { accountPartition } from './account-partition';

export const evidenceKeys = {
  /** The bundle's final documents, certificates, attachments and interim files, with their SHA-256. */
  files: (accountId: string, bundleId: string) => ({
    pk: accountPartition(accountId),
    sk: `BUNDLE#${bundleId}#FILES`,
  }),
  /**
   * A sealed file by its SHA-256 → its account and bundle. The account is in the sort key, so a
   * verification with an API key reads only its own account's item (one GetItem), and the public
   * check asks only whether any item exists (a Query of one).
   */
  hashPartition: (sha256: string) => `FILEHASH#${sha256}`,
  hash: (sha256: string, accountId: string) => ({
    pk: evidenceKeys.hashPartition(sha256),
    sk: accountPartition(accountId),
  }),
};

export function filesRecordFromItem(item: Record<string, unknown>): TBundleFilesRecord {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  const r = rest as unknown as TBundleFilesRecord;
  return {
    ...r,
    finals: r.finals ?? [],
    certificates: r.certificates ?? [],
    attachments: r.attachments ?? [],
  };
}

export function hashEntryToItem(e: TFileHashEntry): Record<string, unknown> {
  return { ...evidenceKeys.hash(e.sha256, e.accountId), entity: 'file-hash', ...e };
}

export function hashEntryFromItem(item: Record<string, unknown>): TFileHashEntry {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return rest as unknown as TFileHashEntry;
}
