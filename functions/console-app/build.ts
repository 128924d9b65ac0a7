// The console's build: esbuild bundles the Preact app (web/) into one script and one stylesheet,
// and each language's console words (console-catalog.ts)
// become a file of their own, so a reader downloads their language's words and nothing else.
// Every asset's name carries a hash of its content, so it can be cached for a year and a new
// build is never mixed with an old one; only index.html names them, and it is never cached.
// The build runs in memory in well under a second: the local runtime builds on first request.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, type BuildResult, build, buildSync } from 'esbuild';
import { LANGUAGES } from '#shared/i18n/languages';
import { consoleCatalogOf } from './console-catalog';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Where the console lives on the service's origin, and its assets below it. */
export const CONSOLE_BASE = '/console/';
export const ASSETS_PATH = `${CONSOLE_BASE}assets/`;

export interface TConsoleAsset {
  contents: Uint8Array;
  contentType: string;
}

/** The build: assets by their hashed file name, and the manifest that names them. */
export interface TConsoleBuild {
  /** Logical name (`main.js`, `main.css`, `locales/ar.json`) → hashed file name under assets/. */
  manifest: Record<string, string>;
  assets: Map<string, TConsoleAsset>;
  /** The source files in the script, relative to the repository (what the browser code imports). */
  inputs: string[];
  /** The page every console path answers with. */
  indexHtml: string;
}

const shortHash = (data: Uint8Array | string) =>
  createHash('sha256').update(data).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** One build's options, and what turns esbuild's output into the console's files. */
function consoleBuild(opts: { minify?: boolean }) {
  const manifest: Record<string, string> = {};
  const assets = new Map<string, TConsoleAsset>();
  const add = (logical: string, file: string, contents: Uint8Array) => {
    manifest[logical] = file;
    assets.set(file, {
      contents,
      contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
  };

  // The catalogs first: the script is told their hashed names.
  const localeUrls: Record<string, string> = {};
  for (const lang of LANGUAGES) {
    const json = Buffer.from(JSON.stringify(consoleCatalogOf(lang)));
    const file = `locale-${lang}-${shortHash(json)}.json`;
    add(`locales/${lang}.json`, file, json);
    localeUrls[lang] = `${ASSETS_PATH}${file}`;
  }

  const options = {
    entryPoints: { main: path.join(HERE, 'web/main.tsx') },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: opts.minify ?? true,
    legalComments: 'none',
    write: false,
    outdir: '/console-out',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    define: { CONSOLE_LOCALES: JSON.stringify(localeUrls) },
    logLevel: 'silent',
    metafile: true,
    absWorkingDir: path.resolve(HERE, '../..'),
  } satisfies BuildOptions;

  const collect = (result: BuildResult<typeof options>): TConsoleBuild => {
    for (const out of result.outputFiles) {
      const file = path.basename(out.path);
      add(`main${path.extname(file)}`, file, out.contents);
    }
    if (!manifest['main.js'] || !manifest['main.css'])
      throw new Error('The console build made no script or stylesheet');
    const inputs = Object.keys(result.metafile.inputs);
    return { manifest, assets, inputs, indexHtml: renderIndex(manifest) };
  };
  return { options, collect };
}

/** Builds the console; `minify: false` keeps it readable for debugging. */
export async function buildConsole(opts: { minify?: boolean } = {}): Promise<TConsoleBuild> {
  const { options, collect } = consoleBuild(opts);
  return collect(await build(options));
}

/** The same build, synchronously: CDK's asset bundling (infra/constructs/edge.ts) cannot wait. */
export function buildConsoleSync(opts: { minify?: boolean } = {}): TConsoleBuild {
  const { options, collect } = consoleBuild(opts);
  return collect(buildSync(options));
}

/**
 * The page: no inline script or style (the CSP refuses both), the language and direction set by
 * the script once it knows the reader's (a static page, the same for everyone, as S3 will serve).
 */
function renderIndex(manifest: Record<string, string>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console</title>
<link rel="stylesheet" href="${ASSETS_PATH}${manifest['main.css']}">
<script type="module" src="${ASSETS_PATH}${manifest['main.js']}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`;
}

/**
 * Writes a build as the static host will serve it: `index.html`, `assets/<hashed names>` and
 * `manifest.json` under `outDir` (`npm run build:console`, default dist/console).
 */
export function writeConsole(built: TConsoleBuild, outDir: string): void {
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  writeFileSync(path.join(outDir, 'index.html'), built.indexHtml);
  for (const [file, asset] of built.assets) writeFileSync(path.join(outDir, 'assets', file), asset.contents);
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(built.manifest, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? 'dist/console');
  writeConsole(await buildConsole(), outDir);
  process.stdout.write(`console built in ${path.relative(process.cwd(), outDir) || '.'}\n`);
}
