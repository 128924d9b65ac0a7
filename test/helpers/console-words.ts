// A console message as the page shows it, for tests to find what a reader sees:
// `consoleWord('signIn.heading')`, `consoleWord('signIn.heading', 'ar')`.
import { consoleCatalogOf } from '#functions/console-app/console-catalog';
import type { TLanguage } from '#shared/i18n/languages';

export function consoleWord(key: string, lang: TLanguage = 'en'): string {
  let node: unknown = consoleCatalogOf(lang);
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no console message ${key}`);
  return node;
}
