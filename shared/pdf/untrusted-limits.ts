// What a PDF someone else wrote may cost us to read. A file of a few hundred bytes can name itself
// as its own child, a few kilobytes of nested Flate can expand to gigabytes, and a few megabytes
// can hold tens of thousands of signature dictionaries: every reader of a given file walks with a
// visited set and stops at these caps (ARCHITECTURE.md, "Untrusted files"), and runs off the
// request's thread with a time and memory budget (shared/adapters/untrusted).
import { decodePDFRawStream, type PDFRawStream } from 'pdf-lib';
import { parsePdf } from './parse-pdf';
import { PdfRejectedError } from './pdf-rejected-error';

export const UNTRUSTED_PDF_LIMITS = {
  /** Indirect objects, object streams' members included: real documents hold a few thousand. */
  maxObjects: 50_000,
  /** What all of a file's streams that are read may expand to, together. */
  maxDecodedBytes: 64 * 2 ** 20,
  /** Signature and document-timestamp dictionaries: a PAdES B-LTA file has a handful. */
  maxSignatures: 50,
} as const;

/** Which cap a file went past. */
export type TPdfLimit = 'objects' | 'decoded bytes' | 'signatures';

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

const tooMuchData = () =>
  new PdfTooComplexError(
    'decoded bytes',
    `The file's compressed data expands to more than ${UNTRUSTED_PDF_LIMITS.maxDecodedBytes / 2 ** 20} MB.`,
  );

/** What the streams of one file may still expand to; shared by every stream read of that file. */
export interface TDecodeBudget {
  left: number;
}

export const newDecodeBudget = (): TDecodeBudget => ({ left: UNTRUSTED_PDF_LIMITS.maxDecodedBytes });

/**
 * A stream's decoded bytes, read piece by piece from pdf-lib's lazy decoders (any filter it
 * knows), never past what `budget` has left: PdfTooComplexError when there is more.
 */
export function decodeWithin(stream: PDFRawStream, budget: TDecodeBudget): Uint8Array {
  const decoder = decodePDFRawStream(stream);
  const pieces: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const piece = decoder.getBytes(64 * 1024);
    if (piece.length === 0) break;
    total += piece.length;
    if (total > budget.left) throw tooMuchData();
    pieces.push(new Uint8Array(piece));
  }
  budget.left -= total;
  return Buffer.concat(pieces);
}

/**
 * Reads the file once as pdf-lib will, leniently, measuring before they are inflated the object
 * and cross-reference streams pdf-lib inflates while it loads, and counting its objects: what
 * pdf-lib's own load would spend on the file is then known to be within the caps. Throws
 * PdfTooComplexError past a cap; a file pdf-lib cannot read at all is left to the reader to say.
 */
export async function checkPdfWithinLimits(bytes: Uint8Array): Promise<void> {
  let objects: number;
  try {
    const context = await parsePdf(bytes, {
      maxDecodedBytes: UNTRUSTED_PDF_LIMITS.maxDecodedBytes,
      measure: 'load',
      lenient: true,
      tooLarge: tooMuchData,
    });
    objects = context.enumerateIndirectObjects().length;
  } catch (err) {
    if (err instanceof PdfTooComplexError) throw err;
    // A load-time stream that could not be measured (another filter than Flate, or damaged data)
    // is one pdf-lib would inflate without a bound.
    if (err instanceof PdfRejectedError) throw new PdfTooComplexError('decoded bytes', err.message);
    return;
  }
  if (objects > UNTRUSTED_PDF_LIMITS.maxObjects) {
    throw new PdfTooComplexError(
      'objects',
      `The file holds ${objects} objects; at most ${UNTRUSTED_PDF_LIMITS.maxObjects} are read.`,
    );
  }
}
