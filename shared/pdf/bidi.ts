// Lines with right-to-left text in the order they are seen: the Unicode bidirectional algorithm
// (bidi-js) gives each character its level; runs of one level are then put in visual order (rule
// L2: from the highest level down, every sequence at that level or above is reversed), and the
// characters of right-to-left runs that have a mirror image ("(" and ")") are swapped for it.
// The characters inside a right-to-left run stay in their logical order: fontkit shapes them
// (Arabic joining needs the logical order) and lays them out right to left itself (draw-text.ts).
import bidiFactory from 'bidi-js';

export type TDirection = 'ltr' | 'rtl';

/** A run of one direction, its text in logical order. */
export interface TLevelRun {
  text: string;
  rtl: boolean;
}

let bidi: ReturnType<typeof bidiFactory> | undefined;

/** Letters written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
const STRONG_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\p{Script=Hebrew}|\p{Script=Arabic}/u;

export const hasRightToLeft = (text: string): boolean => STRONG_RTL.test(text);

/** First-strong isolate … pop directional isolate: a sender's words set apart in a sentence. */
const FSI = '\u2068';
const PDI = '\u2069';
/** The isolates (LRI, RLI, FSI, PDI): read by the algorithm, never drawn (no font has glyphs). */
const ISOLATES = /[\u2066-\u2069]/g;

/**
 * `text` isolated from the sentence it is put in: its own direction holds, and the sentence's
 * punctuation stays the sentence's (an English label's full stop in an Arabic line stays at its end).
 */
export const isolated = (text: string): string => (text === '' ? text : `${FSI}${text}${PDI}`);

/** The direction of a text by its first letter that has one (rule P2), `ltr` when none has. */
export function directionOfText(text: string): TDirection {
  for (const ch of text) {
    if (STRONG_RTL.test(ch)) return 'rtl';
    if (/\p{L}/u.test(ch)) return 'ltr';
  }
  return 'ltr';
}

/**
 * The runs of one line, left to right as drawn. `base` is the paragraph's direction (a
 * right-to-left document's lines are `rtl`; a value on its own is `auto`, by its first letter).
 * A line without right-to-left letters is one left-to-right run whatever the base, so that an
 * address or a fingerprint in an Arabic page reads as written.
 */
export function visualRuns(text: string, base: TDirection | 'auto'): TLevelRun[] {
  if (!hasRightToLeft(text)) {
    const plain = text.replace(ISOLATES, '');
    return plain === '' ? [] : [{ text: plain, rtl: false }];
  }
  bidi ??= bidiFactory();
  const embedding = bidi.getEmbeddingLevels(text, base);
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels);
  const levels = embedding.levels;
  const runs: { text: string; level: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = mirrored.get(i) ?? text[i]!;
    const level = levels[i]!;
    const last = runs.at(-1);
    if (last && last.level === level) last.text += ch;
    else runs.push({ text: ch, level });
  }
  const highest = Math.max(...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => (r.level % 2 === 1 ? r.level : Number.POSITIVE_INFINITY)));
  for (let level = highest; level >= lowestOdd; level--) {
    let start = -1;
    for (let i = 0; i <= runs.length; i++) {
      const inside = i < runs.length && runs[i]!.level >= level;
      if (inside && start < 0) start = i;
      if (!inside && start >= 0) {
        runs.splice(start, i - start, ...runs.slice(start, i).reverse());
        start = -1;
      }
    }
  }
  return runs
    .map((r) => ({ text: r.text.replace(ISOLATES, ''), rtl: r.level % 2 === 1 }))
    .filter((r) => r.text !== '');
}
