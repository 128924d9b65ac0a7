// What the signing page's script needs before it can draw the first page, named in the page's
// head so the browser fetches it all at once: without this it finds the modules one import level
// at a time (app.js, then what app.js imports, then what those import…), and the message library
// and pdf.js only when the code that imports them at run time gets there. The list is read from
// the modules themselves, so a new import is preloaded without anyone listing it.
import type { TAssetStore } from './assets';

/** Imported at run time (`import(variable)`), so not found by reading the import statements. */
const RUN_TIME_IMPORTS = [
  // i18n.js: the message library, before any word can be shown.
  'i18next.js',
  // viewer.js: pdf.js, before any page can be drawn.
  'pdf.min.mjs',
];

const STATIC_IMPORT = /^\s*import\s[^;]*?from\s+'\.\/([\w-]+\.js)'/gm;

/** Every module `entry` imports, directly or not, by its static import statements; `entry` first. */
export function moduleGraph(assets: Pick<TAssetStore, 'read'>, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const source = assets.read(name);
    if (!source) return;
    seen.add(name);
    for (const m of source.toString('utf8').matchAll(STATIC_IMPORT)) visit(m[1]!);
  };
  visit(entry);
  return [...seen];
}

const cache = new Map<string, string[]>();

/** The modules to preload for the signing page's `app.js`: its whole graph and the run-time imports. */
export function signingPagePreloads(assets: TAssetStore): string[] {
  let names = cache.get(assets.version);
  if (!names) {
    names = [...moduleGraph(assets, 'app.js').slice(1), ...RUN_TIME_IMPORTS.filter((n) => assets.read(n))];
    cache.set(assets.version, names);
  }
  return names;
}
