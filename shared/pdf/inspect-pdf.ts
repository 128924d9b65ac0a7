import { createHash } from 'node:crypto';
import { type PDFContext, PDFDict, PDFName, PDFNumber } from 'pdf-lib';
import { pageSizesOf, type TPageSize } from './page-tree';
import { parsePdf } from './parse-pdf';
import { corrupt, encrypted, PdfRejectedError, tooManyPages } from './pdf-rejected-error';

export { PdfRejectedError, type TPdfRejectionReason } from './pdf-rejected-error';

export interface TPdfInfo {
  /** Hex SHA-256 of the bytes as uploaded. */
  sha256: string;
  pageCount: number;
  /** In points, as displayed: the CropBox within the MediaBox, turned by /Rotate 90 or 270. */
  pages: TPageSize[];
}

export interface TPdfLimits {
  maxPages: number;
  /** Cap on what the file's object and cross-reference streams may expand to; default 32 MiB. */
  maxObjectStreamBytes?: number;
}

const DEFAULT_MAX_OBJECT_STREAM_BYTES = 32 * 2 ** 20;
// Acrobat looks for the header in the first 1024 bytes and the end marker in the last 1024;
// so do we, which turns an upload cut short into a clear refusal instead of a partial parse.
const MARKER_WINDOW = 1024;

/**
 * Checks that an upload is a PDF we can work with and measures it, or throws PdfRejectedError.
 * Cheap checks come first, and nothing proportional to the page count the file claims is done
 * before that count has been checked against `limits.maxPages`.
 */
export async function inspectPdf(bytes: Uint8Array, limits: TPdfLimits): Promise<TPdfInfo> {
  if (bytes.length === 0) throw new PdfRejectedError('empty', 'The file is empty.');
  if (!latin1(bytes.subarray(0, MARKER_WINDOW)).includes('%PDF-')) {
    throw new PdfRejectedError('not_pdf', 'The file is not a PDF.');
  }
  if (!latin1(bytes.subarray(-MARKER_WINDOW)).includes('%%EOF')) {
    throw corrupt('it ends early, as if the upload was cut short');
  }

  const context = await load(bytes, limits.maxObjectStreamBytes ?? DEFAULT_MAX_OBJECT_STREAM_BYTES);
  // pdf-lib's PDFDocument.load refuses encryption unless told to ignore it, and then loads the
  // file as if it were plain; we read the parsed file directly and refuse it here.
  if (context.trailerInfo.Encrypt !== undefined) throw encrypted();

  const catalog = context.lookup(context.trailerInfo.Root);
  const pageTree = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('Pages')) : undefined;
  if (!(pageTree instanceof PDFDict)) throw corrupt('it has no page tree');
  const claimed = pageTree.lookup(PDFName.of('Count'));
  if (claimed instanceof PDFNumber && claimed.asNumber() > limits.maxPages)
    throw tooManyPages(limits.maxPages);

  const pages = pageSizesOf(pageTree, limits.maxPages);
  if (pages.length === 0) throw new PdfRejectedError('no_pages', 'The document has no pages.');
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    pageCount: pages.length,
    pages,
  };
}

async function load(bytes: Uint8Array, maxObjectStreamBytes: number): Promise<PDFContext> {
  try {
    return await parsePdf(bytes, { maxDecodedBytes: maxObjectStreamBytes, measure: 'load' });
  } catch (err) {
    // The objects of an encrypted file often do not parse (its object streams are ciphertext),
    // so the trailer's /Encrypt is the better explanation when there is one.
    if (/\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(latin1(bytes))) throw encrypted();
    if (err instanceof PdfRejectedError) throw err;
    throw corrupt('it could not be read as a PDF');
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
