// Documents that several creates share: the rows of one bulk send all name the same files, so
// each is fetched or decoded, made a PDF and inspected once, and stored once under its content
// address, instead of once a row (150 rows, 150 downloads; 10 rows of a 3 MB PDF, 30 MB stored).
import type { TPdfInfo } from '#shared/pdf/inspect-pdf';

/** A document's PDF as checked (an image already made a PDF) and the size it was sent with. */
export interface TCheckedPdf {
  bytes: Buffer;
  info: TPdfInfo;
  /** The size of the file as sent, before an image became a PDF (the bundle's size limit counts it). */
  sentBytes: number;
}

export interface TDocumentSharing {
  /**
   * The checked PDF of a document source (`source` names it: its URL, or a hash of its bytes),
   * made by `make` only when no create sharing it has made it yet.
   */
  checked(source: string, make: () => Promise<TCheckedPdf>): Promise<TCheckedPdf>;
  /** Stores a bundle's document once under its SHA-256 and answers the object's key. */
  stored(bytes: Buffer, sha256: string): Promise<string>;
}

/**
 * Everything of a bulk batch in the documents bucket: its request (with the rows' data), its
 * notes, and the documents its bundles share. The retention policy erases it once every bundle
 * the batch made has had its originals erased (bulk/erase-batch-documents.ts).
 */
export const batchObjectsPrefix = (accountId: string, batchId: string) =>
  `accounts/${accountId}/bulk/${batchId}/`;

/**
 * Where a shared document is kept: by batch and content, never by bundle. Bundles only point at
 * it, as at a template's PDF, so no one bundle's end may delete it: the batch's last one does.
 * Kept per batch, not per account, so that no other batch's bundles point at it. Batches sent
 * before kept them by account alone (`accounts/<id>/documents/sha256/`): those stay.
 */
export const sharedDocumentKey = (accountId: string, batchId: string, sha256: string) =>
  `${batchObjectsPrefix(accountId, batchId)}documents/sha256/${sha256}.pdf`;

/** The batch whose shared document `key` is, if it is one. */
export function batchOfSharedDocument(accountId: string, key: string): string | undefined {
  const prefix = `accounts/${accountId}/bulk/`;
  if (!key.startsWith(prefix)) return undefined;
  const [batchId, ...rest] = key.slice(prefix.length).split('/');
  return batchId && rest.join('/').startsWith('documents/sha256/') ? batchId : undefined;
}
