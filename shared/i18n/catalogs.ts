// The message catalogs, one JSON file per language in ./locales (English is the reference: every
// other catalog has exactly its keys and placeholders, test/unit/i18n-catalogs.test.ts), and the
// server's translator over them. The signing page's script gets its language's catalog as one of
// the page's assets (functions/public-pages/assets.ts) and runs the same i18next in the browser.
//
// A catalog is read from disk the first time its language is asked for, never imported: the 14 of
// them would weigh about 270 KB on every cold start of each function that translates, where one
// request needs one or two. From the repository they sit beside this file; in a Lambda bundle,
// `locales/` beside index.mjs (copyLocales puts them there), which is the same relative path.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance, type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from './languages';

/** A catalog: messages by key, nested by the part of the service that says them. */
export interface TCatalog {
  [key: string]: string | TCatalog;
}

/** The folder of the catalogs, beside this module in the repository and beside a bundle's index.mjs. */
export const LOCALES_DIR = 'locales';

/** Copies the catalogs from the repository at `root` into `<outDir>/locales/` (bundling step). */
export function copyLocales(root: string, outDir: string): void {
  const target = path.join(outDir, LOCALES_DIR);
  mkdirSync(target, { recursive: true });
  for (const lang of LANGUAGES)
    copyFileSync(
      path.join(root, 'shared/i18n', LOCALES_DIR, `${lang}.json`),
      path.join(target, `${lang}.json`),
    );
}

const catalogs = new Map<TLanguage, TCatalog>();

/** One language's catalog, read once per process. */
export function catalogOf(lang: TLanguage): TCatalog {
  let catalog = catalogs.get(lang);
  if (!catalog) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    catalog = JSON.parse(readFileSync(path.join(here, LOCALES_DIR, `${lang}.json`), 'utf8')) as TCatalog;
    catalogs.set(lang, catalog);
  }
  return catalog;
}

/** i18next's settings, the same in the browser (public/i18n.js): text is escaped where it is placed. */
export const I18NEXT_OPTIONS = {
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;

let i18n: ReturnType<typeof createInstance> | undefined;

function instance() {
  if (i18n) return i18n;
  i18n = createInstance({
    ...I18NEXT_OPTIONS,
    lng: DEFAULT_LANGUAGE,
    initAsync: false,
    resources: { [DEFAULT_LANGUAGE]: { translation: catalogOf(DEFAULT_LANGUAGE) } },
  });
  i18n.init();
  return i18n;
}

/** The translator for one language: `t('message.hello', { name })`. */
export function translator(lang: TLanguage): TFunction {
  const i = instance();
  if (!i.hasResourceBundle(lang, 'translation')) i.addResourceBundle(lang, 'translation', catalogOf(lang));
  return i.getFixedT(lang);
}
