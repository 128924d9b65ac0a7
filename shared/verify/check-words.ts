// The verifier's sentences. A check says what it found by a key of the message catalogs
// (`verify.checks.*` in shared/i18n/locales) and the values of its placeholders; the English
// `title` and `next` the report carries (what esign-verify prints and the JSON answers hold) are
// the en catalog's rendering of those words, and the public page renders the same words in the
// visitor's language. So each sentence is written once, in en.json, and translated beside it.
//
// Values are data (names, hashes, serial numbers: kept as they are and isolated from the
// sentence's direction where shown), counts, times, other words (a signature's name) or lists.

import { translator } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import type en from '../i18n/locales/en.json';

type TPluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type TBaseKey<K> = K extends `${infer B}_${TPluralForm}` ? B : K;

/** A key under verify.checks in the en catalog: the verifier cannot name one that is not there. */
export type TCheckKey = `verify.checks.${TBaseKey<keyof (typeof en)['verify']['checks'] & string>}`;

export type TWordValue =
  | string
  | number
  | TWords
  /** An ISO time: as written in the report, in the reader's own way on the page. */
  | { time: string }
  /** Items of a list: joined with `joiner` in the report, as the reader's language lists them on the page. */
  | { list: TWordValue[]; joiner: ', ' | '; ' };

export interface TWords {
  key: TCheckKey;
  values?: Record<string, TWordValue>;
}

/** Words and their values; `count`, when given, picks the plural form. */
export const words = (key: TCheckKey, values?: Record<string, TWordValue>): TWords =>
  values ? { key, values } : { key };

/** A rendered sentence: its own text, and the data put into it. */
export type TPart = { text: string } | { data: string };

/** A time as `lang` writes it, in UTC as the service keeps time; as given when unreadable. */
export function timeIn(lang: TLanguage, iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(d);
}

// Where a value goes in the translated text until the parts are cut apart (private-use characters,
// which no catalog or value holds).
const SLOT = /\uE000(\d+)\uE001/;

/**
 * The words in `lang`, as parts. `report`: the report's own English (times as ISO, lists joined
 * as the verifier always joined them), else as a reader of `lang` expects them.
 */
export function partsOf(said: TWords, lang: TLanguage, report = false): TPart[] {
  const slots: TPart[][] = [];
  const slot = (parts: TPart[]) => `\uE000${slots.push(parts) - 1}\uE001`;
  const put = (v: TWordValue): string => {
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return slot([{ data: v }]);
    if ('key' in v) return slot(partsOf(v, lang, report));
    if ('time' in v) return report ? v.time : timeIn(lang, v.time);
    const items = v.list.map(put);
    return report
      ? items.join(v.joiner)
      : new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
  };
  const values: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(said.values ?? {}))
    values[name] = name === 'count' && typeof v === 'number' ? v : put(v);
  const text = translator(lang)(said.key, values);
  const out: TPart[] = [];
  const add = (part: TPart) => {
    const last = out.at(-1);
    // Text beside text is one run (a name's closing bracket and the sentence after it).
    if (last && 'text' in last && 'text' in part) last.text += part.text;
    else out.push({ ...part });
  };
  text.split(SLOT).forEach((piece, i) => {
    if (i % 2 === 1) for (const part of slots[Number(piece)] ?? []) add(part);
    else if (piece) add({ text: piece });
  });
  return out;
}

/** The sentence the report carries: English, from the en catalog. */
export const sentence = (said: TWords): string =>
  partsOf(said, 'en', true)
    .map((p) => ('text' in p ? p.text : p.data))
    .join('');

// First-strong isolate … pop directional isolate: plain text's <bdi>.
const FSI = '\u2068';
const PDI = '\u2069';

/** The words as text in `lang`, data isolated from the sentence's direction (as <bdi> does in HTML). */
export const textIn = (said: TWords, lang: TLanguage): string =>
  partsOf(said, lang)
    .map((p) => ('text' in p ? p.text : `${FSI}${p.data}${PDI}`))
    .join('');
