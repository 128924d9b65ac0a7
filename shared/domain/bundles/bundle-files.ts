import { ConflictError } from '../errors';
import { certificateDocKey } from '../evidence/evidence-files';
import type { TAccountStore } from '../ports/accounts';
import type { TEvidenceStore } from '../ports/evidence';
import type { TBlobStore } from '../ports/files';
import type { TBundle } from './bundle';
import { isBundleComplete } from './lifecycle/status';
import { assertKept, deletedAt } from './retention';

/** How long a file link stays valid. */
export const FILE_LINK_SECONDS = 15 * 60;

/** Rule 5: files once complete with documents ready, or earlier with early file access. */
export async function filesAvailable(deps: { accounts: TAccountStore }, b: TBundle): Promise<boolean> {
  if (isBundleComplete(b.status) && b.docsReady) return true;
  return Boolean((await deps.accounts.getAccount(b.accountId))?.features.early_file_access);
}

/**
 * A bundle file item: `{file_url, expires, doc_key}` (docs/api-decisions.md) and what it is:
 * - `final`: a document with its values and audit page, sealed (`doc_key` the document's key);
 * - `attachment`: a file a signer attached (`doc_key` its document, `field_key` its field);
 * - `certificate`: a signer's Certificate of Evidence (`doc_key` `coe-<packet key>`);
 * - `interim`: a document as filled so far, not sealed (PUT files/, early file access);
 * - `original`: a document as uploaded (early file access, before any interim file).
 */
export interface TFileItem {
  file_url: string;
  expires: string;
  doc_key: string;
  kind: 'final' | 'attachment' | 'certificate' | 'interim' | 'original';
  name: string;
  sha256?: string;
  field_key?: string;
  packet_id?: string;
  generated_at?: string;
}

/**
 * Time-limited links to the bundle's files. A complete bundle whose documents are ready has its
 * final documents, the signers' attachments and their certificates; before that (early file
 * access) the latest interim files when some were made, else the originals as uploaded.
 */
export async function bundleFiles(
  deps: { accounts: TAccountStore; blobs: TBlobStore; evidence: TEvidenceStore; clock: { now(): Date } },
  b: TBundle,
): Promise<TFileItem[]> {
  if (!(await filesAvailable(deps, b))) {
    throw new ConflictError('Files are available once the bundle is complete and its documents are ready.');
  }
  const expires = new Date(deps.clock.now().getTime() + FILE_LINK_SECONDS * 1000).toISOString();
  const link = (key: string) => deps.blobs.presignGet(key, FILE_LINK_SECONDS);
  const record = await deps.evidence.get(b.accountId, b.id);
  if (isBundleComplete(b.status) && b.docsReady && record?.issuedAt) {
    // Deleted by the retention policy: 410 for the list of the sealed files; the signers'
    // attachments, which a policy may delete sooner, are left out once deleted.
    assertKept(b, 'finals');
    const attachments = deletedAt(b, 'images') ? [] : record.attachments;
    const keyOf = new Map(b.packets.map((p) => [p.id, p.key]));
    return Promise.all([
      ...record.finals.map(
        async (f): Promise<TFileItem> => ({
          file_url: await link(f.blobKey),
          expires,
          doc_key: f.docKey,
          kind: 'final',
          name: f.name,
          sha256: f.sha256,
        }),
      ),
      ...attachments.map(
        async (a): Promise<TFileItem> => ({
          file_url: await link(a.blobKey),
          expires,
          doc_key: a.docKey,
          kind: 'attachment',
          name: a.name,
          field_key: a.fieldKey,
          packet_id: a.packetId,
        }),
      ),
      ...record.certificates.map(
        async (c): Promise<TFileItem> => ({
          file_url: await link(c.blobKey),
          expires,
          doc_key: certificateDocKey(keyOf.get(c.packetId) ?? c.packetKey),
          kind: 'certificate',
          name: `Certificate of Evidence (${keyOf.get(c.packetId) ?? c.packetKey})`,
          sha256: c.sha256,
          packet_id: c.packetId,
        }),
      ),
    ]);
  }
  assertKept(b, 'originals');
  if (record?.interim?.status === 'ready' && record.interim.files.length > 0) {
    const at = record.interim.at;
    return Promise.all(
      record.interim.files.map(
        async (f): Promise<TFileItem> => ({
          file_url: await link(f.blobKey),
          expires,
          doc_key: f.docKey,
          kind: 'interim',
          name: f.name,
          generated_at: at,
        }),
      ),
    );
  }
  return Promise.all(
    b.documents.map(
      async (d): Promise<TFileItem> => ({
        file_url: await link(d.blobKey),
        expires,
        doc_key: d.key,
        kind: 'original',
        name: d.name,
        sha256: d.sha256,
      }),
    ),
  );
}
