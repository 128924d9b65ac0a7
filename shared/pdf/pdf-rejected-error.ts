export type TPdfRejectionReason =
  | 'empty'
  | 'not_pdf'
  | 'corrupt'
  | 'encrypted'
  | 'no_pages'
  | 'too_many_pages'
  /** A JPEG or PNG document that cannot be read, or is too large (image-to-pdf.ts). */
  | 'bad_image'
  /** Reading it would take more time or memory than one request may spend. */
  | 'too_complex';

/**
 * An uploaded document we will not accept. `reason` is stable for callers to branch on (and to
 * map to a field error); the message is for the person who uploaded the file.
 */
export class PdfRejectedError extends Error {
  override name = 'PdfRejectedError';
  constructor(
    readonly reason: TPdfRejectionReason,
    message: string,
  ) {
    super(message);
  }
}

export function corrupt(detail: string): PdfRejectedError {
  return new PdfRejectedError('corrupt', `The file is damaged: ${detail}.`);
}

export function tooManyPages(maxPages: number): PdfRejectedError {
  return new PdfRejectedError('too_many_pages', `The document has more than ${maxPages} pages.`);
}

export function encrypted(): PdfRejectedError {
  return new PdfRejectedError(
    'encrypted',
    'The file is encrypted or password-protected; upload a copy without protection.',
  );
}
