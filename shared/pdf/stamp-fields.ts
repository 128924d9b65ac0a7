// Every field value drawn at its place on the original's pages. What each kind looks like:
// - sig, ini: the drawn PNG fitted to the box; `typed:<text>` in the script font over a line
// - dat, sdt: the date (YYYY-MM-DD) in the field's format, month names in the documents' language
//   (shared/text/field-dates.js, which the signing page previews dates with)
// - chk, apr: a check mark when the value is 'true'
// - cbg: the chosen options (stored `a|b`) joined by ', '
// - a calculated field: its number as its format says (currency, decimals) in the documents'
//   language (shared/text/formula.js, which the signing page shows it with)
// - txt: wrapped and shrunk to fit; inp, sel, snm and any other kind: one line shrunk to fit
// - att: nothing (the file is delivered apart from the document)
import { createHash } from 'node:crypto';
import type { PDFDocument, PDFImage, PDFPage } from 'pdf-lib';
import { formatFieldDate } from '../text/field-dates.js';
import { formatNumber } from '../text/formula.js';
import { drawCheck, drawFittedImage, drawLine, drawTyped, drawWrapped } from './draw-value';
import type { TStampField } from './evidence-types';
import type { TFontSet } from './fonts';
import { boxOf, frameOf, inFrame } from './page-frame';
import { drawable } from './text';

const TYPED = 'typed:';

/** Whether any field needs the script font (so the caller embeds it only then). */
export const needsScript = (fields: TStampField[]) =>
  fields.some((f) => (f.kind === 'sig' || f.kind === 'ini') && !f.image && f.value !== '');

/**
 * The text each field is drawn with: a date as its format writes it (which may add characters of
 * another script, 年月日, or a month name), anything else its value. The fonts are chosen for it.
 */
export const stampedTexts = (fields: TStampField[], language = 'en'): string[] =>
  fields.map((f) =>
    f.calculated
      ? formatNumber(f.value, f.format, language)
      : isDate(f)
        ? formatFieldDate(f.value, f.format, language)
        : f.value,
  );

const isDate = (f: TStampField) => f.kind === 'dat' || f.kind === 'sdt';

export async function stampFields(
  doc: PDFDocument,
  pages: PDFPage[],
  fonts: TFontSet,
  fields: TStampField[],
  language = 'en',
): Promise<void> {
  const images = await embedImages(doc, fields);
  const byPage = new Map<number, TStampField[]>();
  for (const f of fields) {
    const usable =
      Number.isInteger(f.page) &&
      f.page >= 1 &&
      f.page <= pages.length &&
      [f.x, f.y, f.w, f.h].every(Number.isFinite) &&
      f.w > 0 &&
      f.h > 0;
    if (!usable || f.kind === 'att') continue;
    byPage.set(f.page, [...(byPage.get(f.page) ?? []), f]);
  }
  for (const [number, onPage] of byPage) {
    const page = pages[number - 1]!;
    const frame = frameOf(page);
    inFrame(page, frame, () => {
      for (const f of onPage) stampOne(page, boxOf(frame, f), f, fonts, images, language);
    });
  }
}

function stampOne(
  page: PDFPage,
  box: ReturnType<typeof boxOf>,
  f: TStampField,
  fonts: TFontSet,
  images: Map<Uint8Array, PDFImage | undefined>,
  language: string,
): void {
  const text = (s: string, font = fonts.regular) => drawable(font, s, fonts.missing);
  if (f.calculated) {
    drawLine(page, fonts.regular, text(formatNumber(f.value, f.format, language)), box);
    return;
  }
  switch (f.kind) {
    case 'sig':
    case 'ini': {
      const image = f.image ? images.get(f.image) : undefined;
      const typed = f.value.startsWith(TYPED) ? f.value.slice(TYPED.length).trim() : f.value;
      if (image) drawFittedImage(page, image, box);
      // 'drawn' without a readable image: say so rather than leave the place empty.
      else if (f.value === 'drawn') drawLine(page, fonts.regular, '[signature image unavailable]', box);
      else if (typed !== '') drawTyped(page, fonts.script, text(typed, fonts.script), box);
      break;
    }
    case 'chk':
    case 'apr':
      if (f.value.trim().toLowerCase() === 'true') drawCheck(page, box);
      break;
    case 'dat':
    case 'sdt':
      drawLine(page, fonts.regular, text(formatFieldDate(f.value, f.format, language)), box);
      break;
    case 'cbg': {
      const chosen = f.value
        .split('|')
        .map((o) => o.trim())
        .filter((o) => o !== '');
      drawLine(page, fonts.regular, text(chosen.join(', ')), box);
      break;
    }
    case 'txt':
      drawWrapped(page, fonts.regular, drawable(fonts.regular, f.value, fonts.missing, true), box);
      break;
    default:
      drawLine(page, fonts.regular, text(f.value), box);
  }
}

/**
 * Each distinct image embedded once (initials repeated on every page are one XObject). An image
 * that is neither PNG nor JPEG, or does not decode, maps to undefined and is not drawn.
 */
async function embedImages(
  doc: PDFDocument,
  fields: TStampField[],
): Promise<Map<Uint8Array, PDFImage | undefined>> {
  const byHash = new Map<string, Promise<PDFImage | undefined>>();
  const out = new Map<Uint8Array, PDFImage | undefined>();
  for (const f of fields) {
    if (!f.image || out.has(f.image) || f.kind === 'att') continue;
    const hash = createHash('sha256').update(f.image).digest('hex');
    let embedding = byHash.get(hash);
    if (!embedding) {
      embedding = embedImage(doc, f.image);
      byHash.set(hash, embedding);
    }
    out.set(f.image, await embedding);
  }
  return out;
}

export async function embedImage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage | undefined> {
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) return await doc.embedPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return await doc.embedJpg(bytes);
  } catch {
    // A broken image must not stop the document; the place shows it is unavailable.
  }
  return undefined;
}
