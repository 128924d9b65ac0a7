// The console's words in the reader's language: their own choice (kept in this browser), else
// the first of their browser's languages the service speaks, else English. The language's
// catalog (the `console` part of shared/i18n/locales, a hashed asset) is fetched and run by the
// same i18next the signing pages use; <html lang dir> follow, so Arabic and Hebrew read right to left.
import i18next, { type TFunction } from 'i18next';
import {
  DEFAULT_LANGUAGE,
  directionOf,
  LANGUAGES,
  supportedLanguage,
  type TLanguage,
} from '../../../shared/i18n/languages';

const CHOSEN = 'console.language';

export { LANGUAGES, type TLanguage };

/** The language to show: the reader's choice, else their browser's first supported one. */
export function readerLanguage(chosen: string | null, browser: readonly string[]): TLanguage {
  return (
    supportedLanguage(chosen) ??
    browser.map((tag) => supportedLanguage(tag)).find((l) => l !== undefined) ??
    DEFAULT_LANGUAGE
  );
}

function storedChoice(): string | null {
  try {
    return localStorage.getItem(CHOSEN);
  } catch {
    return null; // storage refused (private mode, policy): the browser's language then
  }
}

/** Loads a language's words and sets the page's language and direction; answers the translator. */
export async function loadLanguage(lang: TLanguage): Promise<{ t: TFunction; lang: TLanguage }> {
  let messages: Record<string, unknown> = {};
  for (const name of [lang, DEFAULT_LANGUAGE]) {
    const res = await fetch(CONSOLE_LOCALES[name] ?? '').catch(() => undefined);
    if (res?.ok) {
      messages = await res.json();
      lang = name as TLanguage;
      break;
    }
  }
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: lang,
    fallbackLng: lang,
    resources: { [lang]: { translation: messages } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const root = document.documentElement;
  root.lang = lang;
  root.dir = directionOf(lang);
  return { t: i18n.getFixedT(lang), lang };
}

/** The reader's language at start. */
export const startLanguage = () => readerLanguage(storedChoice(), navigator.languages ?? []);

/** Keeps the reader's choice for the next visit. */
export function chooseLanguage(lang: TLanguage): void {
  try {
    localStorage.setItem(CHOSEN, lang);
  } catch {
    // not kept: the choice lasts this visit
  }
}

/** A language's name in that language (Deutsch, 日本語, العربية), for the language menu. */
export function nativeName(lang: TLanguage): string {
  try {
    const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
    return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
  } catch {
    return lang;
  }
}
