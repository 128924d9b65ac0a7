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

const blocks = perAssetStore<string>();

/**
 * The catalog of `lang` as the page's head carries it; empty when the assets have none (the
 * page then fetches it). Without the file's indentation and line breaks, which are for its
 * translators: a seventh of an English catalog, on every signing page. Every `<` is written as
 * `\u003c`, which JSON reads back the same, so nothing in a message can end the block early
 * (`</script`) or open a comment (`<!--`).
 */
export function catalogBlock(lang: TLanguage, assets: Pick<TAssetStore, 'read'> = signingAssets()): string {
  return blocks(assets, lang, () => {
    const json = assets.read(`locales/${lang}.json`);
    return json
      ? `<script type="application/json" id="${CATALOG_BLOCK_ID}">${JSON.stringify(JSON.parse(json.toString('utf8'))).replaceAll('<', '\\u003c')}</script>`
      : '';
  });
}
