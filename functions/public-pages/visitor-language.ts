// The language of a public page that has no packet (portal, verify, a message): the visitor's own
// choice from the page's language menu (`?lang=`, kept in the page's links and forms), else the
// account's default where an account is known (a portal's), else their browser's, else English:
// the signer's chain (shared/i18n/languages.ts, signerLanguage) with what such a page knows.
// The menu is a plain GET form: these pages work without JavaScript.
import type { TRequest } from '#shared/http/request';
import { translator } from '#shared/i18n/catalogs';
import {
  DEFAULT_LANGUAGE,
  directionOf,
  LANGUAGES,
  languageFromAcceptLanguage,
  signerLanguage,
  supportedLanguage,
  type TLanguage,
} from '#shared/i18n/languages';
import { esc } from './html';

export function visitorLanguage(req: TRequest, accountLanguage?: string): TLanguage {
  return signerLanguage({
    chosen: req.query.get('lang'),
    account: accountLanguage,
    acceptLanguage: req.header('accept-language'),
  });
}

/**
 * The language of the field editor (template preparation, a draft's editor; prepare-page.ts): the
 * sender's, not a signer's. The `?lang=` the console puts on the link when it frames the editor
 * (its reader's language), else the browser's, else the account's default, else English. The
 * account's language is its signers' default, so it comes after the sender's own browser.
 */
export function editorLanguage(req: TRequest, accountLanguage?: string): TLanguage {
  return (
    supportedLanguage(req.query.get('lang')) ??
    languageFromAcceptLanguage(req.header('accept-language')) ??
    supportedLanguage(accountLanguage) ??
    DEFAULT_LANGUAGE
  );
}

/** The `<html>` element's language and direction. */
export const htmlLangAttrs = (lang: TLanguage) => `lang="${lang}" dir="${directionOf(lang)}"`;

const nativeNames = new Map<TLanguage, string>();

/**
 * A language's own name for itself (Deutsch, 日本語, العربية), as the signing page's menu shows it;
 * worked out once per language (each loads that language's locale data).
 */
export function nativeName(tag: TLanguage): string {
  let name = nativeNames.get(tag);
  if (name === undefined) {
    const own = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
    name = own.charAt(0).toLocaleUpperCase(tag) + own.slice(1);
    nativeNames.set(tag, name);
  }
  return name;
}

/** The language menu for the top bar: every language in its own words, and a button to apply. */
export function languageMenuHtml(lang: TLanguage): string {
  const t = translator(lang);
  const options = LANGUAGES.map(
    (code) =>
      `<option value="${code}" lang="${code}"${code === lang ? ' selected' : ''}>${esc(nativeName(code))}</option>`,
  ).join('');
  return `<form class="topbar-language language-form" method="get"><label for="language-select" class="sr-only">${esc(t('page.language'))}</label><select id="language-select" class="language-select" name="lang">${options}</select> <button class="btn language-apply" type="submit">${esc(t('public.languageApply'))}</button></form>`;
}
