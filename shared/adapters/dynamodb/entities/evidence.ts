// Keys of what the document worker keeps: one files record per bundle, and one hash-index item
// per sealed file, declared once.
import type { TBundleFilesRecord, TFileHashEntry } from '#shared/domain/evidence/evidence-files';
import type { TCopyLink } from '#shared/domain/ports/evidence';
import { defineEntity } from '../entity';
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
  /** A link to a signed bundle's copies, by the hash of its token (shared/domain/evidence/copy-link.ts). */
  copyLink: (hash: string) => ({ pk: `COPYLINK#${hash}`, sk: 'COPYLINK' }),
};

/**
 * Made and changed by UpdateItem of its parts (the final set, the lease, the interim state), so
 * parts not written yet read as empty lists.
 */
export const filesRecordEntity = defineEntity<TBundleFilesRecord>({
  name: 'bundle-files',
  version: 1,
  key: (r) => evidenceKeys.files(r.accountId, r.bundleId),
  decode: (attributes) => {
    const r = attributes as unknown as TBundleFilesRecord;
    return {
      ...r,
      finals: r.finals ?? [],
      certificates: r.certificates ?? [],
      attachments: r.attachments ?? [],
    };
  },
});

export const fileHashEntity = defineEntity<TFileHashEntry>({
  name: 'file-hash',
  version: 1,
  key: (e) => evidenceKeys.hash(e.sha256, e.accountId),
});

export const copyLinkEntity = defineEntity<TCopyLink>({
  name: 'copy-link',
  version: 1,
  key: (l) => evidenceKeys.copyLink(l.hash),
});
