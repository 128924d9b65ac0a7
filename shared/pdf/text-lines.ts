/** One run of text as pdf.js reports it, in the page's user space (PDF points, y up). */
export interface TTextRun {
  str: string;
  /** Text matrix times font size: [a, b] is the baseline direction, [e, f] the start of the run. */
  transform: number[];
  /** Advance of the whole run along its baseline. */
  width: number;
  /** Font size along the run's vertical. */
  height: number;
  /** Of the font, as fractions of the font size; descent is negative. */
  ascent: number;
  descent: number;
  /** pdf.js's guess at the font's family, from its name and flags. */
  family: 'sans-serif' | 'serif' | 'monospace';
  /** pdf.js saw a line break after this run. */
  hasEOL: boolean;
}

export interface TPoint {
  x: number;
  y: number;
}

interface TPiece {
  /** Offset of the run's first character in the line's text. */
  start: number;
  /** Undefined for a space we inserted where runs have a gap between them. */
  run?: TTextRun;
}

export interface TTextLine {
  text: string;
  pieces: TPiece[];
}

/**
 * Joins a page's runs into lines: pdf.js splits a line wherever the font or the spacing
 * changes, so "{{sig}}" can arrive as "{{s" and "ig}}". A run continues the line when it sits on
 * the same baseline, in the same direction, starting at or after the end of the previous run;
 * where a visible gap separates them and neither brings a space, a space is inserted, so that
 * text is only found where a reader would see it.
 */
export function linesOf(runs: TTextRun[]): TTextLine[] {
  const lines: TTextLine[] = [];
  let line: TTextLine | undefined;
  let previous: TTextRun | undefined;
  const close = () => {
    if (line && line.text.length > 0) lines.push(line);
    line = undefined;
    previous = undefined;
  };
  for (const run of runs) {
    const direction = directionOf(run);
    if (run.str.length > 0 && direction) {
      const gap = previous ? gapAfter(previous, run) : undefined;
      if (gap === undefined) close();
      line ??= { text: '', pieces: [] };
      if (gap !== undefined && gap > 0.25 * Math.max(run.height, previous?.height ?? 0)) {
        if (!/\s$/.test(line.text) && !/^\s/.test(run.str)) {
          line.pieces.push({ start: line.text.length });
          line.text += ' ';
        }
      }
      line.pieces.push({ start: line.text.length, run });
      line.text += run.str;
      previous = run;
    }
    if (run.hasEOL) close();
  }
  close();
  return lines;
}

/**
 * The corners, in user space, of the boxes covering `text.slice(start, end)` of a line: for each
 * run it touches, from the font's descent to its ascent. pdf.js gives each run's start and
 * length but not each glyph's, so a position inside a run is estimated from the character widths
 * of the standard font of the run's family (Helvetica, Times, or equal widths for monospace):
 * exact at run boundaries and for those fonts, within a character or so for others.
 */
export function cornersOf(line: TTextLine, start: number, end: number): TPoint[] {
  const corners: TPoint[] = [];
  line.pieces.forEach((piece, i) => {
    const run = piece.run;
    const pieceEnd = line.pieces[i + 1]?.start ?? line.text.length;
    if (!run || pieceEnd <= start || piece.start >= end) return;
    const from = advanceFraction(run, Math.max(start, piece.start) - piece.start);
    const to = advanceFraction(run, Math.min(end, pieceEnd) - piece.start);
    const [a = 1, b = 0, , , e = 0, f = 0] = run.transform;
    const scale = Math.hypot(a, b);
    const along = { x: a / scale, y: b / scale };
    const up = { x: -along.y, y: along.x };
    for (const t of [from, to]) {
      for (const v of [run.descent, run.ascent]) {
        corners.push({
          x: e + along.x * run.width * t + up.x * run.height * v,
          y: f + along.y * run.width * t + up.y * run.height * v,
        });
      }
    }
  });
  return corners;
}

function directionOf(run: TTextRun): TPoint | undefined {
  const [a = 0, b = 0] = run.transform;
  const scale = Math.hypot(a, b);
  return scale > 0 ? { x: a / scale, y: b / scale } : undefined;
}

/** How far `next` starts after `previous` ends, or undefined when it is not on the same line. */
function gapAfter(previous: TTextRun, next: TTextRun): number | undefined {
  const u = directionOf(previous);
  const v = directionOf(next);
  if (!u || !v || u.x * v.x + u.y * v.y < 0.99) return undefined;
  const [, , , , pe = 0, pf = 0] = previous.transform;
  const [, , , , ne = 0, nf = 0] = next.transform;
  const dx = ne - pe;
  const dy = nf - pf;
  const size = Math.max(previous.height, next.height, 1);
  const across = Math.abs(-u.y * dx + u.x * dy);
  const gap = u.x * dx + u.y * dy - previous.width;
  if (across > 0.5 * size || gap < -0.5 * size) return undefined;
  return gap;
}

// Advance widths per 1000 em of ' ' to '~' in Helvetica and Times-Roman, without kerning (which
// only applies where a PDF asks for it).
const SANS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const SERIF = [
  250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278, 500, 500, 500, 500, 500,
  500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444, 921, 722, 667, 667, 722, 611, 556, 722, 722, 333,
  389, 722, 611, 889, 722, 722, 556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469,
  500, 333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500, 500, 500, 333, 389,
  278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541,
];
// Outside ASCII: about the average letter.
const TYPICAL_WIDTH = 520;

function advanceFraction(run: TTextRun, chars: number): number {
  if (chars <= 0) return 0;
  if (chars >= run.str.length) return 1;
  if (run.family === 'monospace') return chars / run.str.length;
  const widths = run.family === 'serif' ? SERIF : SANS;
  let before = 0;
  let total = 0;
  for (let i = 0; i < run.str.length; i++) {
    const w = widths[run.str.charCodeAt(i) - 32] ?? TYPICAL_WIDTH;
    if (i < chars) before += w;
    total += w;
  }
  return before / total;
}
