// The one definition of how a Lambda is built. The CDK bundling (constructs/lambda-code.ts)
// and the benchmark both hand these options to esbuild as they are, so what is measured is what
// is deployed. No aws-cdk-lib import here: importing this
// file must stay cheap for the benchmark and the local runtime.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { copyPageAssets } from '#functions/public-pages/assets';
import { UNTRUSTED_WORKER_NAME, UNTRUSTED_WORKER_SOURCE } from '#shared/adapters/untrusted/worker-file';
import { copyLocales } from '#shared/i18n/catalogs';
import { copyPdfFonts } from '#shared/pdf/fonts';
import { copyWebFonts } from './web-fonts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every Lambda of the service, keyed by the name used for its construct, its function name and
 * its bundle folder. Adding a Lambda here is what makes the benchmark see it.
 */
export const LAMBDA_ENTRIES = {
  authorizer: 'functions/authorizer/handler.ts',
  persons: 'functions/persons/handler.ts',
  account: 'functions/account/handler.ts',
  bundles: 'functions/bundles/handler.ts',
  packets: 'functions/packets/handler.ts',
  templates: 'functions/templates/handler.ts',
  webhooks: 'functions/webhooks/handler.ts',
  'envelope-templates': 'functions/envelope-templates/handler.ts',
  'webhook-dispatcher': 'functions/webhook-dispatcher/handler.ts',
  'outbox-sweeper': 'functions/outbox-sweeper/handler.ts',
  'outbox-relay': 'functions/outbox-relay/handler.ts',
  'notifications-worker': 'functions/notifications-worker/handler.ts',
  'public-pages': 'functions/public-pages/handler.ts',
  scheduler: 'functions/scheduler/handler.ts',
  'document-worker': 'functions/document-worker/handler.ts',
  'bulk-worker': 'functions/bulk-worker/handler.ts',
  mcp: 'functions/mcp/handler.ts',
  console: 'functions/console/handler.ts',
} as const;

export type TLambdaName = keyof typeof LAMBDA_ENTRIES;

/**
 * Entries a Lambda's output carries beside index.mjs, by output name: a worker thread's code must
 * be a file of its own. The untrusted-files worker (shared/adapters/untrusted) reads the PDFs,
 * images and CSV people send, within its budget, in every function that is given such files.
 */
const UNTRUSTED_WORKER = { [UNTRUSTED_WORKER_NAME]: UNTRUSTED_WORKER_SOURCE };
export const LAMBDA_WORKERS: Partial<Record<TLambdaName, Record<string, string>>> = {
  bundles: UNTRUSTED_WORKER,
  templates: UNTRUSTED_WORKER,
  'public-pages': UNTRUSTED_WORKER,
  'bulk-worker': UNTRUSTED_WORKER,
};

/**
 * Files a Lambda reads at run time besides its code, written into its output folder after the
 * build: the signing pages' static files (scripts, styles, pdf.js and its worker, fonts), read
 * from `page-assets/` beside index.mjs when first asked for, so they never weigh on the entry
 * bundle's cold start.
 */
export const LAMBDA_EXTRA_FILES: Partial<Record<TLambdaName, (outDir: string) => void>> = {
  // The message catalogs are read beside the bundle too (shared/i18n/catalogs.ts), by every
  // function that translates.
  'public-pages': (outDir) => {
    copyPageAssets(REPO_ROOT, outDir);
    copyLocales(REPO_ROOT, outDir);
    copyWebFonts(REPO_ROOT, outDir);
  },
  'notifications-worker': (outDir) => copyLocales(REPO_ROOT, outDir),
  // The sign-in email is written in the account's language.
  console: (outDir) => copyLocales(REPO_ROOT, outDir),
  // POST /verify/ runs the offline verifier, whose English sentences are the en catalog's.
  bundles: (outDir) => copyLocales(REPO_ROOT, outDir),
  // The fonts the evidence PDFs are drawn with (shared/pdf/fonts.ts reads them beside the bundle).
  'document-worker': (outDir) => {
    copyPdfFonts(REPO_ROOT, outDir);
    copyLocales(REPO_ROOT, outDir);
  },
};

export interface TLambdaEntry {
  name: TLambdaName;
  /** Absolute path of the TypeScript entry file, which exports `handler`. */
  entry: string;
}

export function lambdaEntry(name: TLambdaName): string {
  return path.join(REPO_ROOT, LAMBDA_ENTRIES[name]);
}

export function lambdaEntries(): TLambdaEntry[] {
  return (Object.keys(LAMBDA_ENTRIES) as TLambdaName[]).map((name) => ({ name, entry: lambdaEntry(name) }));
}

// ESM output lets esbuild tree-shake the ESM builds of the AWS SDK, but CommonJS dependencies
// bundled into an ESM file still call `require('node:crypto')` and the like, which ESM lacks:
// esbuild's require shim falls back to a top-level `require` when one exists, so provide it.
// The import is aliased so it cannot clash with a bundled module's own `createRequire` import.
const ESM_REQUIRE_SHIM =
  "import { createRequire as __esmCreateRequire } from 'node:module';const require = __esmCreateRequire(import.meta.url);";

/**
 * The esbuild options every Lambda is built with (add `entryPoints` and `outdir`, or use
 * `lambdaBuildOptions`).
 *
 * - `splitting`: every module reached only through a dynamic `import()` becomes a chunk of its own,
 *   loaded when that import runs: pdf.js (behind the auto-placement text search) and the SDK's
 *   rarely used credential providers stay out of the cold start. The output is a folder: the
 *   entry `index.mjs` (so the handler stays `index.handler`), the chunks beside it, and their
 *   source maps. Chunk names carry a hash of their content, so they are stable across builds.
 * - `outExtension: .mjs`: Node loads every file as ESM without a package.json beside them.
 * - `target: node20`: the code runs on Node 20 here and on nodejs22.x on Lambda; node20 syntax runs
 *   on both.
 * - Nothing is external, the AWS SDK included: the runtime's preinstalled SDK changes version
 *   without notice, while the bundle carries the exact @aws-sdk versions pinned in package.json
 *   that the local runtime and the tests use. Minified bundled files also load faster than the
 *   runtime's unbundled SDK, since Node resolves and reads a dozen files instead of hundreds.
 * - `mainFields: module first`: the SDK's ESM builds tree-shake; their CJS builds do not.
 * - Source maps are external files without sources, so stack traces name the TypeScript file and
 *   line (with NODE_OPTIONS below) while the deployed zip stays small.
 * - `keepNames`: error classes and logs keep readable names after minification.
 * - The banner starts every output file, chunks included: esbuild's require shim lives in a
 *   shared chunk, and each file is a module of its own.
 */
export const LAMBDA_BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  keepNames: true,
  legalComments: 'none',
  mainFields: ['module', 'main'],
  external: [],
  banner: { js: ESM_REQUIRE_SHIM },
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** The entry point's name in the output: the handler is `index.handler`. */
export const LAMBDA_ENTRY_NAME = 'index';

/** The entry file of every Lambda's output folder, beside its chunks. */
export const LAMBDA_BUNDLE_FILE = `${LAMBDA_ENTRY_NAME}.mjs`;

/** Environment every Lambda runs with; mirror it when running a bundle outside Lambda. */
export const LAMBDA_RUNTIME_ENV = {
  NODE_OPTIONS: '--enable-source-maps',
} as const;

/**
 * Complete esbuild options for one Lambda, writing `<outdir>/index.mjs`, its chunks and their maps,
 * and with `name` the Lambda's worker entries beside it (LAMBDA_WORKERS), sharing its chunks.
 * The folder should be empty: chunks of an earlier build would be left beside the new ones.
 */
export function lambdaBuildOptions(entry: string, outdir: string, name?: TLambdaName): BuildOptions {
  const workers = Object.fromEntries(
    Object.entries((name && LAMBDA_WORKERS[name]) ?? {}).map(([out, file]) => [
      out,
      path.join(REPO_ROOT, file),
    ]),
  );
  return {
    ...LAMBDA_BUILD_OPTIONS,
    outExtension: { ...LAMBDA_BUILD_OPTIONS.outExtension },
    mainFields: [...LAMBDA_BUILD_OPTIONS.mainFields],
    external: [...LAMBDA_BUILD_OPTIONS.external],
    banner: { ...LAMBDA_BUILD_OPTIONS.banner },
    absWorkingDir: REPO_ROOT,
    entryPoints: { [LAMBDA_ENTRY_NAME]: entry, ...workers },
    outdir,
  };
}
