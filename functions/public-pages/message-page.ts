// A page that only says something (a link that does not work, a limit reached): the signing pages'
// style sheet, no script, a heading and a sentence. Shared by the public pages of the signing
// function; in the visitor's language when the caller gives one (visitor-language.ts), with the
// language menu when it has a top bar.
import type { TLanguage } from '#shared/i18n/languages';
import { signingAssets } from './assets';
import { esc } from './html';
import { htmlLangAttrs, languageMenuHtml } from './visitor-language';
import { webFontLink } from './web-fonts';

export interface TMessagePageOptions {
  /** A top bar naming the page (as the page the link would have opened shows it); none by default. */
  header?: string;
  /** The language of the title and text, English by default (the sender's own pages). */
  lang?: TLanguage;
  /** The "skip to content" words in that language; with it, the top bar carries the language menu. */
  skip?: string;
}

/** The whole HTML document; `base` is '' locally and `/<stage>` on API Gateway's own URL. */
export function messagePage(
  base: string,
  title: string,
  text: string,
  opts: TMessagePageOptions = {},
): string {
  const lang = opts.lang ?? 'en';
  const menu = opts.skip ? languageMenuHtml(lang) : '';
  const top = opts.header ? topBar(opts.header, opts.skip ?? 'Skip to content', menu) : '';
  return plainDocument(
    base,
    lang,
    title,
    top,
    `<section class="card message" aria-labelledby="msg-title">
<h1 id="msg-title">${esc(title)}</h1><p>${esc(text)}</p></section>`,
  );
}

/**
 * The top bar of a page without script: a skip link, the page's name (isolated, since a sender may
 * write it in another script than the page's), and an optional menu.
 */
export function topBar(name: string, skip: string, menu = ''): string {
  return `<a class="skip-link" href="#main">${esc(skip)}</a>
<header class="topbar"><div class="topbar-inner"><div class="brand"><span class="brand-name"><bdi>${esc(name)}</bdi></span></div>${menu}</div></header>
`;
}

/**
 * A page of the signing function without script, around `main` (trusted HTML): the signing pages'
 * style sheet and the fonts of the page's script, so every such page looks and reads the same.
 */
export function plainDocument(
  base: string,
  lang: TLanguage,
  title: string,
  top: string,
  main: string,
): string {
  const css = `${base}/sign/assets/${signingAssets().version}/app.css`;
  return `<!doctype html>
<html ${htmlLangAttrs(lang)}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${esc(css)}">
${webFontLink(base, lang)}
</head>
<body>
${top}<main id="main" class="main" tabindex="-1">${main}</main>
</body>
</html>
`;
}
