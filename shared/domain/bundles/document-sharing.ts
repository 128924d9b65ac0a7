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
 * Where a shared document is kept: by account and content, never by bundle. Bundles only point
 * at it, as at a template's PDF, so no bundle's end may delete it (nothing deletes originals;
 * a retention rule must count the bundles that point at an object, not go by a bundle's prefix).
 */
export const sharedDocumentKey = (accountId: string, sha256: string) =>
  `accounts/${accountId}/documents/sha256/${sha256}.pdf`;
