// Reading a PDF someone else wrote within the caps of untrusted-limits.ts: its streams expanded
// piece by piece against one budget for the file, and the file measured before pdf-lib loads it.
import { decodePDFRawStream, type PDFRawStream } from 'pdf-lib';
import { parsePdf } from './parse-pdf';
import { PdfRejectedError } from './pdf-rejected-error';
import { PdfTooComplexError, tooMuchData, UNTRUSTED_PDF_LIMITS } from './untrusted-limits';

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
