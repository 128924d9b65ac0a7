// The signing page's words come with its HTML: the catalog of the page's language, as a JSON data
// block in its head (`<script type="application/json">`, which the browser never runs, so the
// page's CSP is unchanged), read by public/i18n.js instead of fetched. A fetched catalog was one
// request more per load, for the browser, its network service and the service alike, and on a
// real network a round trip the page's words waited for (docs/architecture/signing.md). The
// catalog's file stays served too: the page fetches it when its head carries none, and other
// pages fetch theirs.
import type { TLanguage } from '#shared/i18n/languages';
import { signingAssets, type TAssetStore } from './assets';
import { perAssetStore } from './inline-element';

/** The data block's id, as public/i18n.js looks for it. */
export const CATALOG_BLOCK_ID = 'esign-catalog';

/**
 * The catalog's sections the signing page's script translates from (public/app.js and what it
 * imports, checked by test/unit/page-words.test.ts): the head carries those alone. The other
 * pages' words (the verify page's, the certificate's, the editor's…) are over a third of a
 * catalog; the clear pages are made on the server, and a change of language reloads the page.
 */
export const SIGNING_PAGE_SECTIONS: readonly string[] = [
  'page',
  'sign',
  'roles',
  'roleAnswers',
  'message',
  'prefill',
  'formulas',
];

/** The sections of `catalog` the signing page's head carries (SIGNING_PAGE_SECTIONS), in its order. */
export function signingPageWords(catalog: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(catalog).filter(([k]) => SIGNING_PAGE_SECTIONS.includes(k)));
}

const blocks = perAssetStore<string>();

/**
 * The catalog of `lang` as the page's head carries it: its SIGNING_PAGE_SECTIONS, without the
 * file's indentation and line breaks, which are for its translators. Empty when the assets have
 * none (the page then fetches the whole file). Every `<` is written as `\u003c`, which JSON reads
 * back the same, so nothing in a message can end the block early (`</script`) or open a comment
 * (`<!--`).
 */
export function catalogBlock(lang: TLanguage, assets: Pick<TAssetStore, 'read'> = signingAssets()): string {
  return blocks(assets, lang, () => {
    const json = assets.read(`locales/${lang}.json`);
    if (!json) return '';
    const words = signingPageWords(JSON.parse(json.toString('utf8')));
    return `<script type="application/json" id="${CATALOG_BLOCK_ID}">${JSON.stringify(words).replaceAll('<', '\\u003c')}</script>`;
  });
}
