// Text helpers shared by the stamper, the audit page and the certificate: making a value
// drawable with a font (and the faces that stand in for it), wrapping it to a width, and printing
// times. (A date field's value is written by shared/text/field-dates.js, which the signing page
// shares.)
import { type TDirection, visualRuns } from './bidi';
import type { TFont } from './fonts';
import { coveredBy, runsOf } from './text-runs';

/**
 * `text` with what `font` cannot draw replaced: tabs and other control characters become
 * spaces (line breaks are kept when `keepLineBreaks`), invisible format characters (direction
 * marks, variation selectors) are dropped but for the zero-width joiner and non-joiner, which
 * shaping reads, and the directional isolates, which the bidi algorithm reads, and every other character no face of the font's family has becomes '?' and is
 * added to `missing`.
 */
export function drawable(font: TFont, text: string, missing: Set<string>, keepLineBreaks = false): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch === '\n' && keepLineBreaks) out += ch;
    else if (ch === '\r') out += keepLineBreaks ? '' : ' ';
    else if (/[\p{Cc}\u2028\u2029]/u.test(ch)) out += ' ';
    else if (ch === '\u200C' || ch === '\u200D') out += ch;
    // Directional isolates are read by the bidi algorithm (bidi.ts), which drops them.
    else if (ch >= '\u2066' && ch <= '\u2069') out += ch;
    else if (/\p{Cf}/u.test(ch) || /^[\uFE00-\uFE0F]$/.test(ch)) continue;
    else if (coveredBy(font, ch)) out += ch;
    else {
      missing.add(ch);
      out += '?';
    }
  }
  return out;
}

// Per font file, so across documents: the advances are the file's.
const advances = new Map<TFont['face'], Map<string, number>>();

/**
 * The width of `text` at `size` as drawn: cut as draw-text.ts cuts it (direction runs, then runs
 * of one face), each run measured on its own. A run of a shaped script (Arabic, Devanagari) is
 * measured by fontkit's layout, as its glyphs are placed by it; any other is the sum of each
 * character's advance, remembered per face.
 * pdf-lib's own measure shapes the whole string with fontkit on every call, which made wrapping
 * and fitting the costliest part of a render; pdf-lib draws glyphs at their advances too (no
 * kerning), so the sum is the drawn width, but for ligatures, which DejaVu draws as wide as their
 * letters.
 */
export function widthOf(
  font: TFont,
  text: string,
  size: number,
  direction: TDirection | 'auto' = 'auto',
): number {
  let width = 0;
  for (const level of visualRuns(text, direction)) {
    for (const run of runsOf(font, level.text)) {
      width += run.font.shaped ? shapedAdvance(run.font, run.text) : advanceOf(run.font, run.text);
    }
  }
  return width * size;
}

/** DejaVu's cap height, and the top of its accented capitals (Å's ring), in ems. */
const CAP_HEIGHT = 0.73;
const ACCENTED_TOP = 0.97;

/** Latin letters and signs that reach below the baseline, and marks that sit below a letter. */
const DESCENDS = /[gjpqyQ(),;[\]{}|@$§µ]|\u0326|\u0327|\u0328/u;
/** Marks above a letter: an accented capital, or a small letter's accent, rises above a capital. */
const RISES = /\p{M}/u;

/**
 * How far the glyphs of `text` reach above and below the baseline, in ems: DejaVu's cap height
 * above, so plain Latin sits as it always has; more where glyphs reach further. Shaped runs
 * (Arabic's marks, Devanagari's headstroke and signs) are measured glyph by glyph as laid out;
 * the other faces by the top of their accents and their descent where a character needs them:
 * their glyphs are not laid out here, as fontkit's layout of a cached DejaVu face
 * spoils the subsets pdf-lib later writes of it.
 */
export function inkOf(font: TFont, text: string): { above: number; below: number } {
  let above = CAP_HEIGHT;
  let below = 0;
  for (const level of visualRuns(text, 'auto')) {
    for (const run of runsOf(font, level.text)) {
      if (run.font.shaped) {
        const { glyphs, positions } = run.font.layout(run.text);
        glyphs.forEach((g, i) => {
          const { minY, maxY } = g.bbox;
          if (!Number.isFinite(minY) || !Number.isFinite(maxY)) return;
          const dy = positions[i]?.yOffset ?? 0;
          above = Math.max(above, (maxY + dy) / run.font.unitsPerEm);
          below = Math.max(below, -(minY + dy) / run.font.unitsPerEm);
        });
        continue;
      }
      const decomposed = run.text.normalize('NFD');
      if (RISES.test(decomposed)) above = Math.max(above, ACCENTED_TOP);
      if (DESCENDS.test(decomposed))
        below = Math.max(
          below,
          run.font.pdf.heightAtSize(1) - run.font.pdf.heightAtSize(1, { descender: false }),
        );
    }
  }
  return { above, below };
}

/** The advance of a shaped run as drawn (draw-text.ts): the sum of its positioned advances. */
export function shapedAdvance(font: TFont, text: string): number {
  let units = 0;
  for (const p of font.layout(text).positions) units += p.xAdvance;
  return units / font.unitsPerEm;
}

function advanceOf(font: TFont, text: string): number {
  let known = advances.get(font.face);
  if (!known) {
    known = new Map();
    advances.set(font.face, known);
  }
  let width = 0;
  for (const ch of text) {
    let advance = known.get(ch);
    if (advance === undefined) {
      advance = font.pdf.widthOfTextAtSize(ch, 1);
      known.set(ch, advance);
    }
    width += advance;
  }
  return width;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Lines of at most `maxWidth` points: words are kept whole where they fit, a word longer than a
 * line is broken between characters (never inside one as a reader sees it), a run of Chinese or
 * Japanese is broken where the line is full, and `\n` always starts a new line.
 */
export function wrapText(font: TFont, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<=\s)/)) {
      // Chinese and Japanese break between any two characters: a run of them fills the line it
      // starts on rather than moving whole to the next.
      if (line !== '' && widthOf(font, (line + word).trimEnd(), size) > maxWidth && !CJK.test(word)) {
        lines.push(line.trimEnd());
        line = '';
      }
      line += word;
      if (widthOf(font, line.trimEnd(), size) > maxWidth) {
        const broken = breakWord(font, line, size, maxWidth);
        lines.push(...broken.slice(0, -1));
        line = broken.at(-1) ?? '';
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** A word too long for a line, broken between user-perceived characters (never inside a syllable's cluster). */
function breakWord(font: TFont, word: string, size: number, maxWidth: number): string[] {
  const parts: string[] = [];
  let part = '';
  for (const { segment: ch } of graphemes.segment(word)) {
    if (part !== '' && widthOf(font, (part + ch).trimEnd(), size) > maxWidth) {
      parts.push(part);
      part = '';
    }
    part += ch;
  }
  parts.push(part);
  return parts;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An ISO time as a reader of `language` writes it, always in UTC and saying so (`Mar 7, 2025,
 * 14:05:09 UTC`, `2025年3月7日 14:05:09 UTC`; without the zone for table cells under a "(UTC)"
 * heading), on a 24-hour clock; anything unparsable as it is; nothing as '—'.
 */
export function formatUtc(
  iso: string | undefined,
  { zone = true, language = 'en' }: { zone?: boolean; language?: string } = {},
): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const key = `${language}|${zone}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
      ...(zone ? { timeZoneName: 'short' } : {}),
    });
    dateTimeFormats.set(key, format);
  }
  return format.format(new Date(t));
}
