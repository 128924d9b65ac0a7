// Stored files, senders' file_url downloads and the PDF checks on arrival.
import type { TFoundTag, TTextHit } from '#shared/pdf/find-text';
import type { TImageKind, TImagePageSize } from '#shared/pdf/image-kind';
import type { TPdfInfo } from '#shared/pdf/inspect-pdf';
import type { TFormField } from '#shared/pdf/read-form-fields';

export interface TPdfTools {
  /** Throws an error named PdfRejectedError (with `reason`) for a file that is no usable PDF. */
  inspect(bytes: Uint8Array): Promise<TPdfInfo>;
  findText(bytes: Uint8Array, searches: string[]): Promise<Map<string, TTextHit[]>>;
  /** Every "{{…}}" text tag in the document's text (see domain/bundles/text-tag.ts). */
  findTextTags(bytes: Uint8Array): Promise<TFoundTag[]>;
  /** The document with the given text tags taken out of its text and covered (hide-text-tags.ts). */
  hideTextTags(bytes: Uint8Array, tags: TFoundTag[]): Promise<Uint8Array>;
  /** The PDF's own form fields a signer could fill (read-form-fields.ts). */
  readFormFields(bytes: Uint8Array): Promise<TFormField[]>;
  /** The document without the named form fields (remove-form-fields.ts). */
  removeFormFields(bytes: Uint8Array, names: string[]): Promise<Uint8Array>;
  /** A one-page PDF of a JPEG or PNG on `paper`; throws PdfRejectedError for a bad image. */
  imageToPdf(bytes: Uint8Array, kind: TImageKind, paper: TImagePageSize): Promise<Uint8Array>;
}

/** Downloads a sender's file_url; throws an error named UnsafeUrlError (with `reason`) when refused. */
export interface TUrlFetcher {
  fetchUrl(url: string): Promise<{ bytes: Buffer; contentType?: string }>;
}

export interface TBlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** A time-limited GET link. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
}

/**
 * Deletes objects for good. The documents bucket is versioned, so a plain delete would only hide
 * an object behind a delete marker: this removes every version and marker under the prefix.
 */
export interface TBlobEraser {
  /** Removes every version under `prefix`, a page at a time; answers how many it removed. */
  eraseAll(prefix: string): Promise<number>;
}
