// Drawing one line of text in any script: the line is put in visual order (bidi.ts), each
// direction run is cut into runs of one face (text-runs.ts), and the pieces are drawn left to
// right. fontkit shapes each piece and lays out a right-to-left script right to left itself; a
// piece of a right-to-left run without such letters (spaces, punctuation between Arabic words)
// is reversed here.
//
// pdf-lib draws a text as its glyphs one after the other at their advance widths, which is right
// for DejaVu and the CJK faces, but not for Arabic and Devanagari: there the font's positioning
// rules move marks (Arabic dots and vowel signs, Devanagari signs) onto their letters. So pieces
// in those faces are drawn glyph by glyph, each where fontkit's layout puts it. Their glyphs do
// not spell their text (a Devanagari vowel sign drawn before its consonant, conjuncts, one dotless
// Arabic letter shape shared by five letters), so they carry it as /ActualText, and copying or
// extracting the text gives the characters back as entered.
import {
  beginText,
  type Color,
  endText,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  setTextRise,
} from 'pdf-lib';
import { type TDirection, visualRuns } from './bidi';
import type { TFont, TGlyphRun } from './font-types';
import { shapedAdvance, widthOf } from './text';
import { runsOf } from './text-runs';

export interface TTextOptions {
  x: number;
  y: number;
  size: number;
  color?: Color;
  /** The paragraph's direction; `auto` by the text's first letter. */
  direction?: TDirection | 'auto';
}

/** fontkit lays these out right to left itself (its own list of right-to-left scripts). */
const RTL_SCRIPT = /\p{Script=Hebrew}|\p{Script=Arabic}|\p{Script=Syriac}|\p{Script=Thaana}|\p{Script=Nko}/u;

const MARK = /\p{M}/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const reversed = (text: string) =>
  [...graphemes.segment(text)]
    .map((s) => s.segment)
    .reverse()
    .join('');

export interface TPiece {
  /** What to hand to the face: logical order for a script fontkit lays out itself, else as seen. */
  text: string;
  font: TFont;
  /** The characters the piece stands for, in logical order, when its glyphs do not say it. */
  actual?: string;
}

/** The pieces of a line left to right, each drawn with one face. */
export function piecesOf(font: TFont, text: string, direction: TDirection | 'auto' = 'auto'): TPiece[] {
  const pieces: TPiece[] = [];
  for (const run of visualRuns(text, direction)) {
    const faces = runsOf(font, run.text);
    if (run.rtl) faces.reverse();
    for (const f of faces) {
      const laidOutByFontkit = !run.rtl || RTL_SCRIPT.test(f.text);
      pieces.push({
        text: laidOutByFontkit ? f.text : reversed(f.text),
        font: f.font,
        // Arabic's glyphs carry their letters one by one (drawPositioned).
        ...(f.font.shaped && !RTL_SCRIPT.test(f.text) ? { actual: f.text } : {}),
      });
    }
  }
  return pieces;
}

/** Draws one line (no line breaks) from `x`, left to right as seen; returns its width. */
export function drawTextLine(page: PDFPage, font: TFont, text: string, options: TTextOptions): number {
  const { x, y, size, direction = 'auto' } = options;
  let advance = 0;
  for (const piece of piecesOf(font, text, direction)) {
    if (piece.actual) page.pushOperators(beginActualText(page, piece.actual));
    if (piece.font.shaped) {
      drawPositioned(page, piece.font, piece.text, { ...options, x: x + advance });
      advance += shapedAdvance(piece.font, piece.text) * size;
    } else {
      page.drawText(piece.text, {
        x: x + advance,
        y,
        size,
        font: piece.font.pdf,
        ...(options.color ? { color: options.color } : {}),
      });
      advance += widthOf(piece.font, piece.text, size);
    }
    if (piece.actual) page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  }
  return advance;
}

/**
 * Each glyph of a shaped piece where fontkit's layout puts it (offsets and advances of the font's
 * positioning rules), as one TJ run: a number before a glyph moves it along the line from where
 * the glyph before it left off, and the text rise (Ts) lifts or lowers marks, so readers still
 * see one run of text. Arabic marks (the dots of letters whose shape is shared) carry no letter.
 */
function drawPositioned(page: PDFPage, font: TFont, text: string, options: TTextOptions): void {
  const { x, y, size } = options;
  // Encoding adds the glyphs to the document's subset; it is the same layout, glyph for glyph.
  const codes = font.pdf.encodeText(text).toString().slice(1, -1).match(/.{4}/g) ?? [];
  const { glyphs, positions } = font.layout(text);
  const letters = RTL_SCRIPT.test(text) ? lettersByGlyph(text, glyphs) : undefined;
  if (RTL_SCRIPT.test(text) && !letters) page.pushOperators(beginActualText(page, text));
  // Font units → thousandths of the font size, the unit of TJ and of the font's widths.
  const perMille = 1000 / font.unitsPerEm;
  const operators = [pushGraphicsState()];
  if (options.color) operators.push(setFillingColor(options.color));
  operators.push(beginText(), setFontAndSize(fontKey(page, font), size), setTextMatrix(1, 0, 0, 1, x, y));
  let pen = 0;
  let at = 0;
  let rise = 0;
  let run: (PDFHexString | number)[] = [];
  const flush = () => {
    if (run.length > 0) operators.push(showAdjusted(page, run));
    run = [];
  };
  codes.forEach((code, i) => {
    const p = positions[i] ?? { xAdvance: 0, yAdvance: 0, xOffset: 0, yOffset: 0 };
    const target = (pen + p.xOffset) * perMille;
    const lift = (p.yOffset * size) / font.unitsPerEm;
    if (lift !== rise) {
      flush();
      operators.push(setTextRise(lift));
      rise = lift;
    }
    if (Math.abs(target - at) > 0.001) run.push(-(target - at));
    run.push(PDFHexString.of(code));
    if (letters) {
      operators.push(beginActualText(page, letters[i] ?? ''));
      flush();
      operators.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    }
    at = target + (glyphs[i]?.advanceWidth ?? 0) * perMille;
    pen += p.xAdvance;
  });
  flush();
  operators.push(endText(), popGraphicsState());
  page.pushOperators(...operators);
  if (RTL_SCRIPT.test(text) && !letters)
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
}

/**
 * The letters each glyph of a right-to-left run stands for, left to right as drawn: a letter with
 * the vowel signs and other marks that follow it, '' for the glyphs of those marks and of the
 * dots a letter's shape is drawn with; undefined when glyphs and letters do not pair up one to
 * one (a ligature of several letters), and the run then carries its text whole.
 *
 * Right-to-left glyphs are given their letters one by one because readers put each where its
 * glyph is and read the line right to left: a text for the whole run is read backwards by some,
 * and a mark's own text, drawn above or below the line, is read as a line of its own.
 * fontkit's glyphs cannot say it alone: one glyph object serves every letter drawn with it (the
 * dotless shape of ب ت ث ن ي) and names only the first; the dots it adds name none.
 */
function lettersByGlyph(text: string, glyphs: TGlyphRun['glyphs']): string[] | undefined {
  const clusters: string[] = [];
  for (const ch of text) {
    if (MARK.test(ch) && clusters.length > 0) clusters[clusters.length - 1] += ch;
    else clusters.push(ch);
  }
  const isLetter = glyphs.map((g) => {
    const points = (g as { codePoints?: number[] }).codePoints ?? [];
    return points.length > 0 && !points.every((cp) => MARK.test(String.fromCodePoint(cp)));
  });
  if (isLetter.filter(Boolean).length !== clusters.length) return undefined;
  let next = clusters.length - 1;
  return isLetter.map((letter) => (letter ? clusters[next--]! : ''));
}

function showAdjusted(page: PDFPage, items: (PDFHexString | number)[]): PDFOperator {
  return PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [
    page.doc.context.obj(items) as unknown as TOperand,
  ]);
}

const fontKeys = new WeakMap<PDFPage, Map<TFont['pdf'], PDFName>>();

/** The name of the font in the page's resources, added once per page. */
function fontKey(page: PDFPage, font: TFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) {
    keys = new Map();
    fontKeys.set(page, keys);
  }
  let key = keys.get(font.pdf);
  if (!key) {
    key = page.node.newFontDictionary(font.pdf.name, font.pdf.ref);
    keys.set(font.pdf, key);
  }
  return key;
}

type TOperand = NonNullable<Parameters<typeof PDFOperator.of>[1]>[number];

function beginActualText(page: PDFPage, text: string): PDFOperator {
  const properties = PDFDict.fromMapWithContext(
    new Map([[PDFName.of('ActualText'), PDFHexString.fromText(text)]]),
    page.doc.context,
  );
  // pdf-lib's operand type leaves out dictionaries, which it writes inline all the same.
  return PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
    PDFName.of('Span'),
    properties as unknown as TOperand,
  ]);
}
