// The public pages' scripts as the browser loads them: each page's entry module (public/app.js
// for the signing page, public/prepare.js for the document editor) and every module it imports,
// followed by esbuild through the imports themselves, in ONE file, `<entry>.bundle.js`, beside
// the sources. A page of ~30 modules otherwise costs the browser ~30 requests, each module
// compiled and linked on its own, before the first line runs. The sources stay as they are (they
// are served too, for reading, and are what the type checker and the unit tests read); a module
// added to a page is in its bundle as soon as something imports it.
//
// What stays a file of its own, loaded at run time as before, relative to the bundle (which sits
// in the same folder as the sources, so `./x` and `new URL('./x', import.meta.url)` name the
// same file): what the modules import by a specifier in a variable (pdf.js, i18next,
// signature_pad: large, shared with the bare pages, or rarely needed). What the signing page
// starts before its script arrives is not a module at all but the head's inline script
// (early-start.ts), which leaves it for the bundle to take (early-session.js).
//
// Made when the assets are read from the repository (the local runtime, the build that copies
// them beside the Lambda's code, the tests): never on Lambda, which reads the copies. esbuild is a
// build tool: it is loaded only then, through a require the Lambda's own bundler does not follow,
// so it is never part of the function's code.
import { createRequire } from 'node:module';
import path from 'node:path';

/** esbuild, loaded when first used, through a require the Lambda's bundler does not follow. */
const esbuild = () => createRequire(import.meta.url)('esbuild') as typeof import('esbuild');

/** Each page's entry module in public/ → the one script its page loads. */
export const PAGE_SCRIPTS = {
  'app.js': 'app.bundle.js',
  'prepare.js': 'prepare.bundle.js',
} as const;

/**
 * A library's module minified as esbuild minifies the bundles, its licence comments (`/*!`,
 * `@license`) kept: for a library served as a file of its own and not already minified by its
 * package (i18next), which the page would otherwise download and compile whole, comments and all.
 */
export function minifiedModule(source: Buffer): Buffer {
  const { transformSync } = esbuild();
  const { code } = transformSync(source.toString('utf8'), {
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'inline',
    logLevel: 'silent',
  });
  return Buffer.from(code);
}

/**
 * A style sheet minified as esbuild minifies CSS: its comments, indentation and line breaks left
 * out, every rule kept. For the signing page's (app.css), which its head carries on every load
 * (page-style.ts); the sheet stays written for reading in the repository.
 */
export function minifiedStyle(source: Buffer): Buffer {
  const { transformSync } = esbuild();
  const { code } = transformSync(source.toString('utf8'), {
    loader: 'css',
    minify: true,
    legalComments: 'inline',
    logLevel: 'silent',
  });
  return Buffer.from(code);
}

/**
 * The bundles of the page scripts in `publicDir`, with their source maps (`.map`, sources
 * included, so the browser's tools show the modules as written): served name → bytes.
 */
export function bundlePageScripts(publicDir: string): Map<string, Buffer> {
  const { buildSync } = esbuild();
  const out = new Map<string, Buffer>();
  for (const [entry, bundle] of Object.entries(PAGE_SCRIPTS)) {
    const result = buildSync({
      entryPoints: [path.join(publicDir, entry)],
      bundle: true,
      format: 'esm',
      // The browsers the pages support run ES2022 (top-level await: i18n.js) as it is.
      target: 'es2022',
      platform: 'browser',
      minify: true,
      legalComments: 'none',
      sourcemap: 'linked',
      sourcesContent: true,
      write: false,
      outfile: path.join(publicDir, bundle),
      absWorkingDir: publicDir,
      logLevel: 'silent',
    });
    for (const file of result.outputFiles) out.set(path.basename(file.path), Buffer.from(file.contents));
  }
  return out;
}
