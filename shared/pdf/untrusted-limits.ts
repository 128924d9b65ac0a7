// What a PDF someone else wrote may cost us to read. A file of a few hundred bytes can name itself
// as its own child, a few kilobytes of nested Flate can expand to gigabytes, and a few megabytes
// can hold tens of thousands of signature dictionaries: every reader of a given file walks with a
// visited set and stops at these caps (ARCHITECTURE.md, "Untrusted files"), and runs off the
// request's thread with a time and memory budget (shared/adapters/untrusted).
// The caps themselves stand alone here (the API description lists them); reading within them is
// read-within-limits.ts.

export const UNTRUSTED_PDF_LIMITS = {
  /** Indirect objects, object streams' members included: real documents hold a few thousand. */
  maxObjects: 50_000,
  /** What all of a file's streams that are read may expand to, together. */
  maxDecodedBytes: 64 * 2 ** 20,
  /** Signature and document-timestamp dictionaries: a PAdES B-LTA file has a handful. */
  maxSignatures: 50,
  /** Fields and widgets of a form read as fields: the IRS W-4 has a few dozen. */
  maxFormNodes: 2_000,
} as const;

/** Which cap a file went past. */
export type TPdfLimit = 'objects' | 'decoded bytes' | 'signatures' | 'form fields';

/** The file goes past a cap: it is not said to be broken, only too costly to read here. */
export class PdfTooComplexError extends Error {
  override name = 'PdfTooComplexError';
  constructor(
    readonly limit: TPdfLimit,
    message: string,
  ) {
    super(message);
  }
}

export const tooManySignatures = (count: number) =>
  new PdfTooComplexError(
    'signatures',
    `The file holds ${count} signature dictionaries; at most ${UNTRUSTED_PDF_LIMITS.maxSignatures} are checked.`,
  );

export const tooMuchData = () =>
  new PdfTooComplexError(
    'decoded bytes',
    `The file's compressed data expands to more than ${UNTRUSTED_PDF_LIMITS.maxDecodedBytes / 2 ** 20} MB.`,
  );

export const tooManyFormNodes = () =>
  new PdfTooComplexError(
    'form fields',
    `The file's form has more than ${UNTRUSTED_PDF_LIMITS.maxFormNodes} fields and widgets; at most that many are read.`,
  );
