import { PDFWriter } from 'pdf-lib';
import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import { loadPdfjs } from './load-pdfjs';
import { parsePdf } from './parse-pdf';
import { corrupt, encrypted, PdfRejectedError, tooManyPages } from './pdf-rejected-error';
import { cornersOf, linesOf, type TTextLine, type TTextRun } from './text-lines';

export interface TTextHit {
  /** 1-based. */
  page: number;
  /** Percent of the displayed page's width and height, from its top-left corner to the hit's. */
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TFindTextOptions {
  /** Refuse documents with more pages than this; inspectPdf has normally refused them already. */
  maxPages?: number;
  /** Cap on what the streams read for text (content, forms, fonts) may expand to; 256 MiB. */
  maxDecodedBytes?: number;
}

const DEFAULT_MAX_PAGES = 2000;
const DEFAULT_MAX_DECODED_BYTES = 256 * 2 ** 20;
const OBJECTS_PER_TICK = 10_000;
const VERBOSITY_ERRORS = 0;

/**
 * Every occurrence of each search text in the document's text, page by page in reading order.
 * Matching is exact and case-sensitive, within one line of text (runs on the same baseline are
 * joined, see linesOf), and occurrences do not overlap. Each hit's box spans the matched
 * characters from the font's descent to its ascent, on the page as displayed (CropBox, /Rotate).
 * Text drawn as images or vector outlines is not text and is not found. Every search text is a
 * key of the result; an empty search text finds nothing.
 */
export async function findText(
  bytes: Uint8Array,
  searches: string[],
  options: TFindTextOptions = {},
): Promise<Map<string, TTextHit[]>> {
  const hits = new Map(searches.map((s): [string, TTextHit[]] => [s, []]));
  const wanted = [...hits.keys()].filter((s) => s.length > 0);
  if (wanted.length === 0) return hits;

  await eachLine(bytes, options, (pageNumber, line, viewport) => {
    for (const search of wanted) {
      for (let at = line.text.indexOf(search); at >= 0; at = line.text.indexOf(search, at + search.length)) {
        const box = boxOf(pageNumber, line, at, at + search.length, viewport);
        // Only a search for a space can match nothing but a gap we filled in: no box to give.
        if (box) hits.get(search)!.push(box);
      }
    }
  });
  return hits;
}

/** A text tag as written on a page: from its "{{" to its "}}", or to the line's end if unclosed. */
export interface TFoundTag {
  page: number;
  text: string;
  closed: boolean;
  box: TTextHit;
}

/**
 * Every text tag in the document's text, page by page in reading order: from each "{{" to where
 * `tagEnd` says it closes (the grammar is the service's, not this module's). A tag lies within
 * one line, which may join several runs of text (a writer splits a line wherever the font or the
 * spacing changes); an opened tag that the line does not close is reported as unclosed.
 */
export async function findTextTags(
  bytes: Uint8Array,
  tagEnd: (text: string, from: number) => number,
  options: TFindTextOptions = {},
): Promise<TFoundTag[]> {
  const tags: TFoundTag[] = [];
  await eachLine(bytes, options, (pageNumber, line, viewport) => {
    for (let at = line.text.indexOf('{{'); at >= 0; ) {
      const end = tagEnd(line.text, at);
      const closed = end >= 0;
      const stop = closed ? end : line.text.length;
      const box = boxOf(pageNumber, line, at, stop, viewport);
      if (box) tags.push({ page: pageNumber, text: line.text.slice(at, stop), closed, box });
      at = closed ? line.text.indexOf('{{', end) : -1;
    }
  });
  return tags;
}

type TViewport = {
  width: number;
  height: number;
  convertToViewportPoint(x: number, y: number): number[];
};

function boxOf(page: number, line: TTextLine, from: number, to: number, viewport: TViewport) {
  const corners = cornersOf(line, from, to).map((c) => viewport.convertToViewportPoint(c.x, c.y));
  return corners.length > 0 ? percentBox(page, corners, viewport) : undefined;
}

/** Calls `visit` for each line of text of each page, in reading order. */
async function eachLine(
  bytes: Uint8Array,
  options: TFindTextOptions,
  visit: (page: number, line: TTextLine, viewport: TViewport) => void,
): Promise<void> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: await rewritten(bytes, options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
    verbosity: VERBOSITY_ERRORS,
  });
  try {
    const doc = await task.promise.catch((err: unknown) => {
      throw (err as Error)?.name === 'PasswordException'
        ? encrypted()
        : corrupt('it could not be read as a PDF');
    });
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (doc.numPages > maxPages) throw tooManyPages(maxPages);
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      const viewport = page.getViewport({ scale: 1 });
      for (const line of linesOf(runsOf(await page.getTextContent()))) visit(pageNumber, line, viewport);
      page.cleanup();
    }
  } catch (err) {
    if (err instanceof PdfRejectedError) throw err;
    throw corrupt('its text could not be read');
  } finally {
    await task.destroy();
  }
}

/**
 * The document as pdf-lib parses and writes it: every object well-formed, behind a fresh
 * cross-reference table. pdf.js fetches some objects ahead without awaiting them, and an object
 * that fails to parse then rejects a promise nobody handles, which ends a Node process; a damaged
 * file that pdf-lib cannot parse is refused here instead. The parse also bounds what the
 * streams pdf.js will read expand to.
 */
async function rewritten(bytes: Uint8Array, maxDecodedBytes: number): Promise<Uint8Array> {
  try {
    const context = await parsePdf(bytes, { maxDecodedBytes, measure: 'text' });
    return await PDFWriter.forContext(context, OBJECTS_PER_TICK).serializeToBuffer();
  } catch (err) {
    throw err instanceof PdfRejectedError ? err : corrupt('it could not be read as a PDF');
  }
}

function runsOf(content: TextContent): TTextRun[] {
  return content.items
    .filter((item): item is TextItem => 'str' in item)
    .map((item) => {
      const style = content.styles[item.fontName];
      // pdf.js reports 0 (or nonsense) for fonts whose metrics it could not read.
      const ascent = style && style.ascent > 0 ? style.ascent : 0.8;
      const descent = style && style.descent < 0 ? style.descent : -0.2;
      return {
        str: item.str,
        transform: item.transform as number[],
        width: item.width,
        height: item.height,
        ascent,
        descent,
        family: familyOf(style?.fontFamily),
        hasEOL: item.hasEOL,
      };
    });
}

function familyOf(fontFamily: string | undefined): TTextRun['family'] {
  return fontFamily === 'serif' || fontFamily === 'monospace' ? fontFamily : 'sans-serif';
}

function percentBox(page: number, corners: number[][], viewport: TViewport): TTextHit {
  const xs = corners.map((c) => ((c[0] ?? 0) / viewport.width) * 100);
  const ys = corners.map((c) => ((c[1] ?? 0) / viewport.height) * 100);
  const left = clamp(Math.min(...xs));
  const top = clamp(Math.min(...ys));
  return {
    page,
    x: round(left),
    y: round(top),
    w: round(clamp(Math.max(...xs)) - left),
    h: round(clamp(Math.max(...ys)) - top),
  };
}

const clamp = (percent: number) => Math.min(100, Math.max(0, percent));
// Hundredths of a percent: under a tenth of a point on an A4 or Letter page.
const round = (percent: number) => Math.round(percent * 100) / 100;
