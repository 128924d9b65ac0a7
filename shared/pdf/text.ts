// Text helpers shared by the stamper, the audit page and the certificate: making a value
// drawable with a font, wrapping it to a width, and printing dates and times.
import type { TFont } from './fonts';

/**
 * `text` with what `font` cannot draw replaced: tabs and other control characters become
 * spaces (line breaks are kept when `keepLineBreaks`), invisible format characters (zero-width
 * joiners, direction marks, variation selectors) are dropped, and every other character the
 * font has no glyph for becomes '?' and is added to `missing`.
 */
export function drawable(font: TFont, text: string, missing: Set<string>, keepLineBreaks = false): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch === '\n' && keepLineBreaks) out += ch;
    else if (ch === '\r') out += keepLineBreaks ? '' : ' ';
    else if (/[\p{Cc}\u2028\u2029]/u.test(ch)) out += ' ';
    else if (/\p{Cf}/u.test(ch) || /^[\uFE00-\uFE0F]$/.test(ch)) continue;
    else if (font.covers(ch.codePointAt(0)!)) out += ch;
    else {
      missing.add(ch);
      out += '?';
    }
  }
  return out;
}

// Per font file (role), so across documents: the advances are the file's.
const advances = new Map<TFont['role'], Map<string, number>>();

/**
 * The width of `text` at `size`, from each character's advance, remembered per font. pdf-lib's
 * own measure shapes the whole string with fontkit on every call, which made wrapping and fitting
 * the costliest part of a render; pdf-lib draws glyphs at their advances too (no kerning), so the
 * sum is the drawn width, but for ligatures, which DejaVu draws as wide as their letters. Kept
 * per font file, for every document of the process.
 */
export function widthOf(font: TFont, text: string, size: number): number {
  let known = advances.get(font.role);
  if (!known) {
    known = new Map();
    advances.set(font.role, known);
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
  return width * size;
}

/**
 * Lines of at most `maxWidth` points: words are kept whole where they fit, a word longer than a
 * line is broken between characters, and `\n` always starts a new line.
 */
export function wrapText(font: TFont, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<=\s)/)) {
      if (line !== '' && widthOf(font, (line + word).trimEnd(), size) > maxWidth) {
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

function breakWord(font: TFont, word: string, size: number, maxWidth: number): string[] {
  const parts: string[] = [];
  let part = '';
  for (const ch of word) {
    if (part !== '' && widthOf(font, (part + ch).trimEnd(), size) > maxWidth) {
      parts.push(part);
      part = '';
    }
    part += ch;
  }
  parts.push(part);
  return parts;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * The date formats a `dat` or `sdt` field's `format` may name (upper or lower case), and how
 * 2025-03-07 prints in each:
 * - `MM/DD/YYYY` → 03/07/2025
 * - `DD/MM/YYYY` → 07/03/2025
 * - `YYYY-MM-DD` → 2025-03-07
 * - `D MMMM YYYY` → 7 March 2025 (English month names)
 * Any other format, or none, prints as `D MMMM YYYY`: spelled out, it cannot be misread as
 * month-first or day-first.
 */
export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'D MMMM YYYY'] as const;

/**
 * A field's date (`YYYY-MM-DD`; an ISO time is taken at its date) in the field's format. A value
 * that is no date is returned as it is, so nothing entered is ever hidden.
 */
export function formatDate(value: string, format: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value.trim());
  if (!m) return value;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const month = MONTHS[Number(mo) - 1];
  if (!month || Number(d) < 1 || Number(d) > 31) return value;
  switch (format.trim().toUpperCase()) {
    case 'MM/DD/YYYY':
      return `${mo}/${d}/${y}`;
    case 'DD/MM/YYYY':
      return `${d}/${mo}/${y}`;
    case 'YYYY-MM-DD':
      return `${y}-${mo}-${d}`;
    default:
      return `${Number(d)} ${month} ${y}`;
  }
}

/**
 * An ISO time as `2025-03-07 14:05:09 UTC` (without the zone for table cells under a "(UTC)"
 * heading); anything unparsable as it is; nothing as '—'.
 */
export function formatUtc(iso: string | undefined, { zone = true } = {}): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')}${zone ? ' UTC' : ''}`;
}
