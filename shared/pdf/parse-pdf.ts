import { constants, inflateRawSync } from 'node:zlib';
import { PDFArray, type PDFContext, PDFName, type PDFObject, PDFParser, PDFRawStream } from 'pdf-lib';
import { corrupt, type PdfRejectedError } from './pdf-rejected-error';

// Objects between ticks: big enough that yielding costs little, small enough to let other
// requests in while a large file parses.
const OBJECTS_PER_TICK = 10_000;
const FLATE = new Set([PDFName.of('FlateDecode'), PDFName.of('Fl')]);
const DECODED_AT_LOAD = new Set([PDFName.of('ObjStm'), PDFName.of('XRef')]);
// Where pdf-lib's recovery scan stops: a keyword that starts a section, or an object header. The
// header's number must start a run of digits, so that no run is scanned more than a few times.
const RESUME_AT = /xref|trailer|startxref|(?<!\d)\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]*obj/;

export interface TParseLimits {
  /** Total that the measured streams may expand to. */
  maxDecodedBytes: number;
  /**
   * 'load': the object and cross-reference streams, which pdf-lib inflates while it loads a file;
   * any filter there but Flate is refused. 'text': also every other stream but images, which a
   * text extractor inflates (page content, forms, fonts); streams with other filters than Flate
   * are not measured there, since old files use them legitimately.
   */
  measure: 'load' | 'text';
  /**
   * Read past objects pdf-lib cannot parse, as PDFDocument.load does with throwOnInvalidObject
   * off (the verifier reads damaged files); strict by default.
   */
  lenient?: boolean;
  /** The error for a file whose streams expand past the cap; by default a PdfRejectedError. */
  tooLarge?: () => Error;
}

// The parser members we replace on one instance; pdf-lib is pinned, and the tests of hostile
// files in test/unit/pdf.test.ts fail if these stop being called.
interface TParserInternals {
  parseObject(): PDFObject;
  skipJibberish(): void;
  skipWhitespaceAndComments(): void;
  bytes: { offset(): number; moveTo(offset: number): void };
}

/**
 * pdf-lib's parser, strict about objects it cannot parse, with two fixes for hostile input:
 * - it inflates object and cross-reference streams in full, with no limit, as soon as it has read
 *   them, so a few kilobytes of nested Flate can demand gigabytes: each one is measured first with
 *   a capped inflate (see TParseLimits for which), all of them together held to a total;
 * - its scan past bytes that are not objects builds an exception for each byte, seconds per
 *   megabyte of garbage: it is replaced by a regular-expression search for the same places.
 * Throws PdfRejectedError when the measuring refuses the file, and pdf-lib's errors otherwise.
 */
export async function parsePdf(
  bytes: Uint8Array,
  { maxDecodedBytes, measure, lenient = false, tooLarge = expandsTooFar }: TParseLimits,
): Promise<PDFContext> {
  const parser = PDFParser.forBytesWithOptions(bytes, OBJECTS_PER_TICK, !lenient);
  const internals = parser as unknown as TParserInternals;

  // pdf-lib catches what a hook throws and reports an invalid object instead; keep our reason.
  let refusal: Error | undefined;
  let decoded = 0;
  const parseObject = internals.parseObject.bind(parser);
  internals.parseObject = () => {
    const object = parseObject();
    const loadTime =
      object instanceof PDFRawStream &&
      DECODED_AT_LOAD.has(object.dict.lookup(PDFName.of('Type')) as PDFName);
    const readForText =
      object instanceof PDFRawStream &&
      measure === 'text' &&
      object.dict.lookup(PDFName.of('Subtype')) !== PDFName.of('Image');
    if (object instanceof PDFRawStream && (loadTime || readForText)) {
      const size = decodedSize(object, maxDecodedBytes - decoded, loadTime);
      if (typeof size !== 'number') {
        refusal = size === TOO_LARGE ? tooLarge() : size;
        throw refusal;
      }
      decoded += size;
    }
    return object;
  };

  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const resumeAt = new RegExp(RESUME_AT, 'g');
  internals.skipJibberish = () => {
    internals.skipWhitespaceAndComments();
    resumeAt.lastIndex = internals.bytes.offset();
    internals.bytes.moveTo(resumeAt.exec(text)?.index ?? bytes.length);
  };

  try {
    return await parser.parseDocument();
  } catch (err) {
    throw refusal ?? err;
  }
}

const TOO_LARGE = Symbol('too large');
const expandsTooFar = () => corrupt('its compressed data expands to far more than a document needs');

function decodedSize(
  { dict, contents }: PDFRawStream,
  budget: number,
  onlyFlate: boolean,
): number | PdfRejectedError | typeof TOO_LARGE {
  const filter = dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map((f) => dict.context.lookup(f)) : [filter];
  let data = contents;
  for (const f of filters) {
    if (f === undefined) continue;
    // Every producer writes the load-time streams with Flate; any other filter would have to be
    // decoded without a bound to be measured. Elsewhere old files use others, and they go unmeasured.
    if (!(f instanceof PDFName) || !FLATE.has(f)) {
      return onlyFlate
        ? corrupt(`its internal objects are compressed with ${String(f)}, which is not accepted`)
        : data.length;
    }
    if (data.length < 2) return 0;
    try {
      // Raw inflate past the 2-byte zlib header, keeping what a truncated stream holds: lenient
      // like pdf-lib's decoder, which ignores the checksum too.
      data = inflateRawSync(data.subarray(2), {
        maxOutputLength: Math.max(1, budget + 1),
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return TOO_LARGE;
      // A decoder more lenient than zlib could go on to expand it without bound: refuse it.
      return corrupt('it holds compressed data with errors');
    }
  }
  return data.length > budget ? TOO_LARGE : data.length;
}
