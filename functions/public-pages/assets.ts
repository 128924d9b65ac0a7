// The signing pages' static files (/sign/assets/<version>/<name>): the page's own scripts and
// style sheet (functions/public-pages/public/, each page's modules also as one bundle made from
// them: page-bundles.ts), pdf.js with its worker, fonts and character maps,
// signature_pad, i18next and the message catalogs (shared/i18n/locales/), and Swagger UI for /docs. Nothing here is imported into the Lambda's code: the files are read from disk
// when first asked for, so they never weigh on the entry bundle's cold start.
//
// - From the repository (local runtime, tests): each name maps to its source file.
// - On Lambda: the bundling step (infra/bundling.ts → copyPageAssets) copies the same files
//   into `page-assets/` beside index.mjs, with a manifest naming them and their version.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePageScripts, minifiedModule, minifiedStyle } from './page-bundles';

/** The folder beside the Lambda's index.mjs that holds the copies. */
export const PAGE_ASSETS_DIR = 'page-assets';
const MANIFEST = 'manifest.json';

/** Single files: name served → path in the repository. */
const FILES: Record<string, string> = {
  'pdf.min.mjs': 'node_modules/pdfjs-dist/build/pdf.min.mjs',
  'pdf.worker.min.mjs': 'node_modules/pdfjs-dist/build/pdf.worker.min.mjs',
  'signature_pad.min.js': 'node_modules/signature_pad/dist/signature_pad.min.js',
  // The message library the page runs over the catalog it is given (public/i18n.js), minified.
  'i18next.js': 'node_modules/i18next/dist/esm/i18next.js',
  // The API reference page (/docs, docs-page.ts): Swagger UI, its style sheet and its licence.
  'swagger-ui/swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui/swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
  'swagger-ui/LICENSE': 'node_modules/swagger-ui-dist/LICENSE',
};
/** Whole folders: every file in them, served as `<prefix><name>`. */
const FOLDERS: Record<string, string> = {
  '': 'functions/public-pages/public',
  'standard_fonts/': 'node_modules/pdfjs-dist/standard_fonts',
  'cmaps/': 'node_modules/pdfjs-dist/cmaps',
  // The message catalogs (shared/i18n): the page loads its language's.
  'locales/': 'shared/i18n/locales',
  // The rules the page and the service share (shared/text), run by the page as they are. The
  // page's folder links to them (public/text), so its imports read the same in the repository
  // and as served.
  'text/': 'shared/text',
};

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  // The bundles' source maps, read by the browser's developer tools.
  '.map': 'application/json',
};

export function contentTypeOf(name: string): string {
  if (/(^|\/)LICENSE[^/]*$/.test(name)) return 'text/plain; charset=utf-8';
  return CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** Every served name and its source, from the repository at `root`. */
function assetSources(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, from] of Object.entries(FILES)) out.set(name, path.join(root, from));
  for (const [prefix, from] of Object.entries(FOLDERS)) {
    const dir = path.join(root, from);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Type declarations (`.d.ts`) are for the type checker, not the browser.
      if (entry.isFile() && !entry.name.startsWith('.') && !entry.name.endsWith('.d.ts'))
        out.set(`${prefix}${entry.name}`, path.join(dir, entry.name));
    }
  }
  return out;
}

/**
 * The files served minified, as written for reading otherwise: i18next, which its package ships
 * as written, and the signing page's style sheet, which its head carries on every load.
 */
const MINIFIED: Record<string, (source: Buffer) => Buffer> = {
  'i18next.js': minifiedModule,
  'app.css': minifiedStyle,
};

/** Every served file's bytes, from the repository at `root`: its files and the page scripts' bundles. */
function assetContents(root: string): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  for (const [name, from] of assetSources(root)) {
    const bytes = readFileSync(from);
    contents.set(name, MINIFIED[name]?.(bytes) ?? bytes);
  }
  for (const [name, bytes] of bundlePageScripts(path.join(root, FOLDERS['']!))) contents.set(name, bytes);
  return contents;
}

/** A short hash of every name and content: part of each asset's URL, so they can be cached for good. */
function versionOf(files: Map<string, Buffer>): string {
  const h = createHash('sha256');
  for (const name of [...files.keys()].sort())
    h.update(name).update('\0').update(files.get(name)!).update('\0');
  return h.digest('hex').slice(0, 16);
}

/**
 * Copies the assets from the repository at `root` into `<outDir>/page-assets/` with a manifest;
 * the bundling step of the signing Lambda calls it.
 */
export function copyPageAssets(root: string, outDir: string): void {
  const target = path.join(outDir, PAGE_ASSETS_DIR);
  const contents = assetContents(root);
  for (const [name, bytes] of contents) {
    const to = path.join(target, name);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, bytes);
  }
  const manifest = { version: versionOf(contents), files: [...contents.keys()].sort() };
  writeFileSync(path.join(target, MANIFEST), `${JSON.stringify(manifest)}\n`);
}

export interface TAssetStore {
  version: string;
  /** The file's bytes, or undefined for a name that is not an asset. */
  read(name: string): Buffer | undefined;
}

function bundledStore(dir: string): TAssetStore {
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as {
    version: string;
    files: string[];
  };
  const names = new Set(manifest.files);
  const cache = new Map<string, Buffer>();
  return {
    version: manifest.version,
    read(name) {
      if (!names.has(name)) return undefined;
      let bytes = cache.get(name);
      if (!bytes) {
        bytes = readFileSync(path.join(dir, name));
        cache.set(name, bytes);
      }
      return bytes;
    },
  };
}

function sourceStore(root: string): TAssetStore {
  const contents = assetContents(root);
  return { version: versionOf(contents), read: (name) => contents.get(name) };
}

let store: TAssetStore | undefined;

/**
 * The assets, found on first use: the copies beside the bundle when there are any, else the
 * repository this file sits in (two folders up).
 */
export function signingAssets(): TAssetStore {
  if (store) return store;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundled = path.join(here, PAGE_ASSETS_DIR);
  store = existsSync(path.join(bundled, MANIFEST))
    ? bundledStore(bundled)
    : sourceStore(path.resolve(here, '../..'));
  return store;
}
