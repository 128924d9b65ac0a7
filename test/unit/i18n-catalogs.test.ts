// Every catalog says what the English one says, no more and no less: the same keys, the same
// placeholders in each message, and for plural messages exactly the forms the language's
// Intl.PluralRules asks for (Arabic six, Polish four, Japanese one).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleCatalogOf, consoleParts } from '#functions/console-app/console-catalog';
import { catalogOf, type TCatalog } from '#shared/i18n/catalogs';
import { LANGUAGES } from '#shared/i18n/languages';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every message of a catalog by its dotted key. */
function flatten(node: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') {
    out.set(prefix, node);
    return out;
  }
  for (const [k, v] of Object.entries(node as Record<string, unknown>))
    flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1] ?? '').sort();

/** Keys with the plural suffix taken off, and the placeholders each base key's messages use. */
function messagesOf(flat: Map<string, string>) {
  const plain = new Map<string, string[]>();
  const plurals = new Map<string, Map<string, string>>();
  for (const [key, text] of flat) {
    const m = PLURAL_SUFFIX.exec(key);
    if (m) {
      const base = key.slice(0, m.index);
      if (!plurals.has(base)) plurals.set(base, new Map());
      plurals.get(base)!.set(m[1]!, text);
    } else plain.set(key, placeholders(text));
  }
  return { plain, plurals };
}

const FILES = LANGUAGES.map((l) => `${l}.json`).sort();
const LOCALES = path.resolve(import.meta.dirname, '../../shared/i18n/locales');
const CONSOLE_LOCALES = path.resolve(import.meta.dirname, '../../functions/console-app/locales');

describe('the catalogs’ files', () => {
  it('are one file per supported language, nothing else', () => {
    expect(readdirSync(LOCALES).sort()).toEqual(FILES);
  });

  it('are, for each part of the console, one file per supported language', () => {
    expect(consoleParts().length).toBeGreaterThan(0);
    for (const part of consoleParts())
      expect(readdirSync(path.join(CONSOLE_LOCALES, part)).sort(), part).toEqual(FILES);
  });
});

// The signing pages' and emails' catalogs, and the console's, by the same rules.
describe.each([
  ['the catalogs', catalogOf],
  ['the console’s catalogs', consoleCatalogOf],
] as const)('%s', (_name, catalogOf: (lang: (typeof LANGUAGES)[number]) => TCatalog) => {
  const english = messagesOf(flatten(catalogOf('en')));

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English message and no other', (lang) => {
    const own = messagesOf(flatten(catalogOf(lang)));
    expect([...own.plain.keys()].sort()).toEqual([...english.plain.keys()].sort());
    expect([...own.plurals.keys()].sort()).toEqual([...english.plurals.keys()].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s keeps each message’s placeholders', (lang) => {
    const own = messagesOf(flatten(catalogOf(lang)));
    for (const [key, names] of english.plain) expect(own.plain.get(key), key).toEqual(names);
  });

  it.each(LANGUAGES)(
    '%s has exactly the plural forms its language uses, each with the same placeholders',
    (lang) => {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
      const own = messagesOf(flatten(catalogOf(lang)));
      for (const [base, forms] of english.plurals) {
        const names = new Set(placeholders([...forms.values()].join(' ')));
        // `count` may go unsaid where the form itself says the number ("one field").
        names.delete('count');
        const mine = own.plurals.get(base)!;
        expect([...mine.keys()].sort(), base).toEqual(categories);
        for (const [form, text] of mine) {
          const used = new Set(placeholders(text));
          used.delete('count');
          expect([...used].sort(), `${base}_${form}`).toEqual([...names].sort());
        }
      }
    },
  );

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s is translated, not a copy of English', (lang) => {
    const own = flatten(catalogOf(lang));
    // A message of placeholders and punctuation only ("{{name}}: {{revoked}}.") has no words to translate.
    const words = (v: string) => v.replace(/\{\{[^}]*\}\}/g, '');
    const same = [...flatten(catalogOf('en'))].filter(
      ([k, v]) => own.get(k) === v && /\p{L}{4,}/u.test(words(v)),
    );
    // A few words are the same in both languages (Text, Status, Webhooks…), a few in a hundred
    // messages at most; a copied catalog has nearly all of them the same.
    const allowed = Math.max(12, Math.ceil(own.size * 0.03));
    expect(same.length, same.map(([k]) => k).join(', ')).toBeLessThan(allowed);
  });
});
