// Which face draws each character: a text is cut into runs, each drawn with one font. Letters of
// the scripts the Noto faces serve go to that face (Arabic, Devanagari, Japanese kana, Han), other
// letters to the DejaVu face asked for, or to any face that has them; marks, spaces, digits and
// punctuation stay in the run they are in when its face has them, so a word keeps its shaping
// context (a vowel sign with its consonant) and a phrase stays one run.
import type { TFallbackScript, TFont, THanStyle } from './font-types';

export interface TRun {
  text: string;
  font: TFont;
}

const ARABIC = /\p{Script=Arabic}/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
// Han with the CJK punctuation, symbols and full-width forms that belong with it.
const HAN = /[\p{Script=Han}\p{Script=Bopomofo}\u3000-\u303F\u31C0-\u31EF\u3200-\u33FF\uFF00-\uFFEF]/u;
const HAS_KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LETTER = /\p{L}/u;

type TClass = TFallbackScript | 'han' | undefined;

function classOf(ch: string): TClass {
  if (ARABIC.test(ch)) return 'arabic';
  if (DEVANAGARI.test(ch)) return 'devanagari';
  if (KANA.test(ch)) return 'japanese';
  if (HAN.test(ch)) return 'han';
  return undefined;
}

/** Han in a text with kana is Japanese; otherwise the document's language decides. */
const hanStyleOf = (text: string, fallback: THanStyle): THanStyle =>
  HAS_KANA.test(text) ? 'japanese' : fallback;

/** The Noto faces the texts need (fonts.ts embeds those only). */
export function fallbackScriptsOf(texts: Iterable<string>, han: THanStyle): Set<TFallbackScript> {
  const scripts = new Set<TFallbackScript>();
  for (const text of texts) {
    const style = hanStyleOf(text, han);
    for (const ch of text) {
      const c = classOf(ch);
      if (c === 'han') scripts.add(style);
      else if (c) scripts.add(c);
    }
  }
  return scripts;
}

/** The face of `font`'s family that should draw `ch`, or undefined when none has it. */
function faceFor(font: TFont, ch: string, han: THanStyle): TFont | undefined {
  const cp = ch.codePointAt(0)!;
  const c = classOf(ch);
  const own = c === 'han' ? han : c;
  const wanted = own ? font.fallbacks[own] : undefined;
  if (wanted?.covers(cp)) return wanted;
  // Han the preferred face lacks may be in the other one.
  if (c === 'han') {
    const other = font.fallbacks[han === 'japanese' ? 'chinese' : 'japanese'];
    if (other?.covers(cp)) return other;
  }
  if (font.covers(cp)) return font;
  return Object.values(font.fallbacks).find((f) => f.covers(cp));
}

/** Whether some face of `font`'s family can draw the character. */
export const coveredBy = (font: TFont, ch: string): boolean => faceFor(font, ch, font.han) !== undefined;

/** `text` cut into runs of one face each, in the order given. */
export function runsOf(font: TFont, text: string): TRun[] {
  const runs: TRun[] = [];
  const han = hanStyleOf(text, font.han);
  let current: TRun | undefined;
  for (const ch of text) {
    const stays = current && !LETTER.test(ch) && current.font.covers(ch.codePointAt(0)!);
    const face = stays ? current!.font : (faceFor(font, ch, han) ?? font);
    if (current && current.font === face) current.text += ch;
    else {
      current = { text: ch, font: face };
      runs.push(current);
    }
  }
  return runs;
}
