// A bulk send's documents, shared by its rows' bundles (document-sharing.ts). A chunk's rows
// share them in memory; later chunks (other invocations) find them through a note the first
// kept beside the batch's request: the checked PDF's content address and what inspecting it said.
import { createHash } from 'node:crypto';
import type { TPdfInfo } from '#shared/pdf/inspect-pdf';
import { sharedDocumentKey, type TCheckedPdf, type TDocumentSharing } from '../bundles/document-sharing';
import { BlobNotFoundError } from '../errors';
import type { TBlobStore } from '../ports/files';
import type { TBulkBatch } from './bulk-batch';

interface TNote {
  sha256: string;
  info: TPdfInfo;
  sentBytes: number;
}

const noteKey = (batch: TBulkBatch, source: string) =>
  `accounts/${batch.accountId}/bulk/${batch.id}/documents/${createHash('sha256').update(source).digest('hex')}.json`;

export function batchDocuments(
  blobs: TBlobStore,
  batch: TBulkBatch,
  /** The SHA-256 of documents already kept as shared documents (the request's own PDFs). */
  alreadyStored: readonly string[] = [],
): TDocumentSharing {
  // Promises, so rows never prepare one document side by side; a refusal (a file_url that
  // answers 404) is shared by the chunk's rows too, each reporting it as its own error.
  const checked = new Map<string, Promise<TCheckedPdf>>();
  const stored = new Map<string, Promise<string>>(
    alreadyStored.map((sha256) => [
      sha256,
      Promise.resolve(sharedDocumentKey(batch.accountId, batch.id, sha256)),
    ]),
  );
  const store = (sha256: string, bytes: Buffer) => {
    let key = stored.get(sha256);
    if (!key) {
      const at = sharedDocumentKey(batch.accountId, batch.id, sha256);
      key = blobs.put(at, bytes, 'application/pdf').then(() => at);
      key.catch(() => stored.delete(sha256));
      stored.set(sha256, key);
    }
    return key;
  };

  async function noted(source: string): Promise<TCheckedPdf | undefined> {
    try {
      const note = JSON.parse((await blobs.get(noteKey(batch, source))).toString('utf8')) as TNote;
      const bytes = await blobs.get(sharedDocumentKey(batch.accountId, batch.id, note.sha256));
      stored.set(note.sha256, Promise.resolve(sharedDocumentKey(batch.accountId, batch.id, note.sha256)));
      return { bytes, info: note.info, sentBytes: note.sentBytes };
    } catch (err) {
      if (err instanceof BlobNotFoundError) return undefined;
      throw err;
    }
  }

  async function prepare(source: string, make: () => Promise<TCheckedPdf>): Promise<TCheckedPdf> {
    const found = await noted(source);
    if (found) return found;
    const made = await make();
    const sha256 = createHash('sha256').update(made.bytes).digest('hex');
    await store(sha256, made.bytes);
    const note: TNote = { sha256, info: made.info, sentBytes: made.sentBytes };
    await blobs.put(noteKey(batch, source), Buffer.from(JSON.stringify(note)), 'application/json');
    return made;
  }

  return {
    checked(source, make) {
      let p = checked.get(source);
      if (!p) {
        p = prepare(source, make);
        checked.set(source, p);
      }
      return p;
    },
    stored: (bytes, sha256) => store(sha256, bytes),
  };
}
