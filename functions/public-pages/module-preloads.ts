// What the signing page's script imports at run time before it can draw the first page, named in
// the page's head so the browser fetches it while the script itself arrives: otherwise it is asked
// for only when the code that imports it gets there. The page's own modules need no such list:
// they come as one file (page-bundles.ts).
import type { TAssetStore } from './assets';

/** Imported at run time (`import(variable)`), so not part of the page's bundle. */
const RUN_TIME_IMPORTS = [
  // i18n.js: the message library, before any word can be shown.
  'i18next.js',
  // viewer.js: pdf.js, before any page can be drawn.
  'pdf.min.mjs',
];

/** The modules to preload for the signing page's script. */
export function signingPagePreloads(assets: Pick<TAssetStore, 'read'>): string[] {
  return RUN_TIME_IMPORTS.filter((n) => assets.read(n));
}
