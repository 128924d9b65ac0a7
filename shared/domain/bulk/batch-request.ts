// A bulk send's request as the batch keeps it (the body and its rows: a batch's rows outgrow an
// item). A document sent inline (file_b64) is kept once, by its content, and the request only
// names it: otherwise request.json would hold a second copy of every uploaded file, a third
// larger than the file, besides the shared document its bundles point at.
import { createHash } from 'node:crypto';
import type { TBulkRequest } from '#shared/schemas/bulk';
import { sharedDocumentKey } from '../bundles/document-sharing';
import type { TBlobStore } from '../ports/files';
import type { TBulkBatch } from './bulk-batch';

/** A document of the bundle whose file_b64 is kept apart: where, and the SHA-256 it must have. */
interface TKeptFile {
  document: number;
  key: string;
  sha256: string;
}

/** request.json: the request as parsed, with `keptFiles` for the documents taken out of it. */
type TKeptRequest = TBulkRequest & { keptFiles?: TKeptFile[] };

const DATA_URL = /^data:[^,]*;base64,/;

/**
 * Where an inline file is kept. A PDF is kept where the batch's bundles will find it as their
 * shared document (document-sharing.ts): one object for the upload and for every bundle. An
 * image (made a PDF when a row is created) is kept beside the batch.
 */
function keptFileKey(accountId: string, batchId: string, bytes: Buffer, sha256: string): string {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-'
    ? sharedDocumentKey(accountId, batchId, sha256)
    : `accounts/${accountId}/bulk/${batchId}/files/${sha256}`;
}

/**
 * Keeps the request at `key`, each inline document's bytes kept once apart. Only base64 that
 * decodes and encodes back to itself is taken out (the worker puts back exactly that); anything
 * else stays inline for the row's create to refuse as a single create would.
 */
export async function keepBulkRequest(
  blobs: TBlobStore,
  batch: Pick<TBulkBatch, 'id' | 'accountId' | 'requestKey'>,
  request: TBulkRequest,
): Promise<void> {
  const documents = request.bundle.documents;
  const keptFiles: TKeptFile[] = [];
  const bundle = { ...request.bundle };
  if (Array.isArray(documents)) {
    const written = new Map<string, Promise<void>>();
    bundle.documents = await Promise.all(
      documents.map(async (doc: unknown, document) => {
        if (!doc || typeof doc !== 'object' || typeof (doc as { file_b64?: unknown }).file_b64 !== 'string')
          return doc;
        const { file_b64, ...rest } = doc as { file_b64: string };
        const b64 = file_b64.replace(DATA_URL, '');
        const bytes = Buffer.from(b64, 'base64');
        if (bytes.length === 0 || bytes.toString('base64') !== b64) return doc;
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const key = keptFileKey(batch.accountId, batch.id, bytes, sha256);
        const type = key.endsWith('.pdf') ? 'application/pdf' : 'application/octet-stream';
        if (!written.has(key)) written.set(key, blobs.put(key, bytes, type));
        await written.get(key);
        keptFiles.push({ document, key, sha256 });
        return rest;
      }),
    );
  }
  const kept: TKeptRequest = { ...request, bundle, ...(keptFiles.length > 0 ? { keptFiles } : {}) };
  await blobs.put(batch.requestKey, Buffer.from(JSON.stringify(kept)), 'application/json');
}

/**
 * The request as it was sent, each kept file read once and put back as its base64; and the
 * SHA-256 of the PDFs already kept as shared documents, which the batch need not store again
 * (the bucket is versioned: a second put of the same bytes would be a second copy).
 */
export async function readBulkRequest(
  blobs: TBlobStore,
  batch: TBulkBatch,
): Promise<{ request: TBulkRequest; sharedStored: string[] }> {
  const { keptFiles, ...request } = JSON.parse(
    (await blobs.get(batch.requestKey)).toString('utf8'),
  ) as TKeptRequest;
  if (!keptFiles?.length) return { request, sharedStored: [] };
  const documents = [...(request.bundle.documents as Record<string, unknown>[])];
  const read = new Map<string, Promise<string>>();
  for (const f of keptFiles) {
    // Only keepBulkRequest writes keptFiles (the request's schema drops any such key of a sender).
    let b64 = read.get(f.key);
    if (!b64) {
      b64 = blobs.get(f.key).then((bytes) => bytes.toString('base64'));
      read.set(f.key, b64);
    }
    documents[f.document] = { ...documents[f.document], file_b64: await b64 };
  }
  return {
    request: { ...request, bundle: { ...request.bundle, documents } },
    sharedStored: [
      ...new Set(
        keptFiles
          .filter((f) => f.key === sharedDocumentKey(batch.accountId, batch.id, f.sha256))
          .map((f) => f.sha256),
      ),
    ],
  };
}
