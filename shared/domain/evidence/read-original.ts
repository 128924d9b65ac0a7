import { createHash } from 'node:crypto';
import type { TDocument } from '../bundles/bundle';
import { BlobNotFoundError } from '../errors';
import type { TBlobStore } from '../ports/files';
import { EvidenceInputError } from './evidence-deps';

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A document's original as uploaded: the stored object must still hash to the SHA-256 taken when
 * the bundle was created, or the evidence would stamp and seal something nobody signed.
 */
export async function readOriginal(deps: { blobs: TBlobStore }, doc: TDocument): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await deps.blobs.get(doc.blobKey);
  } catch (err) {
    if (err instanceof BlobNotFoundError) {
      throw new EvidenceInputError('document_missing', `The original of document "${doc.key}" is missing.`);
    }
    throw err;
  }
  if (sha256Hex(bytes) !== doc.sha256) {
    throw new EvidenceInputError(
      'document_corrupt',
      `The stored original of document "${doc.key}" is not the file that was uploaded (its SHA-256 differs).`,
    );
  }
  return bytes;
}
