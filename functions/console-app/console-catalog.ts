// The console's words, apart from the signing pages' catalogs: one folder per part of the console
// under ./locales (`common`, `sign-in`, `bundles`, …), one JSON file per language in each. A
// language's console catalog is its files merged; two parts may not name the same top-level key.
// English is the reference: every language has exactly its keys and placeholders
// (test/unit/i18n-catalogs.test.ts checks these catalogs as it checks the signing pages').
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TCatalog } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';

const LOCALES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'locales');

/** The console's parts, each a folder of catalogs. */
export const consoleParts = (): string[] =>
  readdirSync(LOCALES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** One language's console words: every part's file for that language, merged. */
export function consoleCatalogOf(lang: TLanguage): TCatalog {
  const words: TCatalog = {};
  for (const part of consoleParts()) {
    const own = JSON.parse(readFileSync(path.join(LOCALES, part, `${lang}.json`), 'utf8')) as TCatalog;
    for (const [key, value] of Object.entries(own)) {
      if (key in words)
        throw new Error(`The console's "${part}" words name "${key}", which another part has`);
      words[key] = value;
    }
  }
  return words;
}
