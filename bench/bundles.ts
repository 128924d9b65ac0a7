// Lambda bundles as deployed: built with exactly the esbuild options the CDK stack uses
// (infra/bundling.ts), then each one imported in fresh Node processes to time what a cold start
// pays for loading the code (not the Lambda runtime's own start, nor the first request).
//
// Each Lambda is a folder: index.mjs and chunks. What a cold start loads is the entry and the
// chunks it imports statically (transitively); chunks reached only through dynamic import()
// (pdf.js, rarely used SDK credential providers) load when that code first runs. The target is
// about the former; the latter is counted in the totals.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import {
  LAMBDA_BUNDLE_FILE,
  LAMBDA_RUNTIME_ENV,
  lambdaBuildOptions,
  lambdaEntries,
  REPO_ROOT,
  type TLambdaName,
} from '#infra/bundling';
import { median } from './stats';

export const BUNDLE_DIR = path.join(REPO_ROOT, 'bench', 'tmp', 'bundles');

export interface TBundleFigures {
  name: TLambdaName;
  /**
   * What a cold start loads: index.mjs plus every chunk it imports statically. The figure the
   * 1 MB target applies to (it was the single file's size before code splitting).
   */
  bytes: number;
  /** The same files gzipped one by one. */
  gzipBytes: number;
  /** index.mjs alone. */
  entryFileBytes: number;
  /** How many .mjs files a cold start loads (index.mjs included). */
  entryFiles: number;
  /** Every .mjs file of the folder, what the deployment carries (maps excluded). */
  totalBytes: number;
  /** Roughly what the deployment zip carries for the code (maps excluded). */
  totalGzipBytes: number;
  totalFiles: number;
  /** Whether any of pdfjs-dist is in what a cold start loads (it should be loaded on demand). */
  pdfjsAtColdStart: boolean;
  importMedianMs: number;
  importRunsMs: number[];
}

/**
 * What the functions read from their environment when their module loads (shared/config.ts:
 * TABLE_NAME is required; the rest mirror the stack's values). Only these, PATH and HOME reach
 * the child: the bench's own NODE_OPTIONS (tsx's loader) or AWS credentials must not.
 */
function handlerEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...LAMBDA_RUNTIME_ENV,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_REGION: 'us-east-1',
    STAGE: 'bench',
    LOG_LEVEL: 'info',
    TABLE_NAME: 'esign-bench',
    BUCKET_NAME: 'esign-bench-documents',
    USAGE_PLAN_ID: 'bench-usage-plan',
  };
}

// Runs in the child as CommonJS (`node -e`). The clock starts right before the dynamic import,
// so Node's own start-up is not counted; an import that throws or lacks `handler` fails the run.
const IMPORT_SCRIPT = `
const { performance } = require('node:perf_hooks');
const t0 = performance.now();
import(process.env.BENCH_BUNDLE_URL).then(
  (m) => {
    const ms = performance.now() - t0;
    if (typeof m.handler !== 'function') { console.error('the bundle exports no handler function'); process.exit(3); }
    process.stdout.write(JSON.stringify({ ms }));
  },
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exit(2); },
);`;

function timeImport(file: string): number {
  const out = spawnSync(process.execPath, ['-e', IMPORT_SCRIPT], {
    env: { ...handlerEnv(), BENCH_BUNDLE_URL: pathToFileURL(file).href },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (out.status !== 0) {
    throw new Error(`importing ${file} failed (exit ${out.status}): ${out.stderr || out.error}`);
  }
  return (JSON.parse(out.stdout) as { ms: number }).ms;
}

/** Output paths (as the metafile spells them) that loading `entry` loads: static imports, transitively. */
function staticClosure(outputs: Metafile['outputs'], entry: string): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external && outputs[imported.path]) {
        pending.push(imported.path);
      }
    }
  }
  return [...seen];
}

function containsPackage(outputs: Metafile['outputs'], files: string[], pkg: string): boolean {
  const marker = `node_modules/${pkg}/`;
  return files.some((f) => Object.keys(outputs[f]?.inputs ?? {}).some((input) => input.includes(marker)));
}

function sizes(files: string[]): { bytes: number; gzipBytes: number } {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(path.join(REPO_ROOT, file));
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { bytes, gzipBytes };
}

export async function benchBundles(opts: { importRuns?: number } = {}): Promise<TBundleFigures[]> {
  const runs = opts.importRuns ?? 7;
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const figures: TBundleFigures[] = [];
  for (const { name, entry } of lambdaEntries()) {
    const outdir = path.join(BUNDLE_DIR, name);
    mkdirSync(outdir, { recursive: true });
    // The metafile only describes the output; the files written are the same without it.
    const { metafile } = await build({ ...lambdaBuildOptions(entry, outdir, name), metafile: true });
    const file = path.join(outdir, LAMBDA_BUNDLE_FILE);
    // Metafile paths are relative to absWorkingDir (REPO_ROOT), with forward slashes.
    const entryKey = path.relative(REPO_ROOT, file).split(path.sep).join('/');
    const code = Object.keys(metafile.outputs).filter((f) => f.endsWith('.mjs'));
    if (!code.includes(entryKey)) throw new Error(`esbuild wrote no ${entryKey}`);
    const atColdStart = staticClosure(metafile.outputs, entryKey);
    const entrySizes = sizes(atColdStart);
    const totalSizes = sizes(code);
    const pdfjsAtColdStart = containsPackage(metafile.outputs, atColdStart, 'pdfjs-dist');
    const importRunsMs: number[] = [];
    // Sequential: parallel children would compete for the two cores and time each other.
    for (let i = 0; i < runs; i++) importRunsMs.push(timeImport(file));
    figures.push({
      name,
      bytes: entrySizes.bytes,
      gzipBytes: entrySizes.gzipBytes,
      entryFileBytes: metafile.outputs[entryKey]!.bytes,
      entryFiles: atColdStart.length,
      totalBytes: totalSizes.bytes,
      totalGzipBytes: totalSizes.gzipBytes,
      totalFiles: code.length,
      pdfjsAtColdStart,
      importMedianMs: median(importRunsMs),
      importRunsMs,
    });
  }
  console.log(`\n${bundleFolderTable(figures)}\n`);
  return figures;
}

/**
 * The split figures, printed as soon as they are known (bench/run.ts prints `bytes`, the cold-start
 * size, against the target with the rest of its report).
 */
export function bundleFolderTable(figures: TBundleFigures[]): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const rows = [
    [
      '  function',
      'cold start',
      'files',
      'gzip',
      'index.mjs',
      'all chunks',
      'files',
      'gzip',
      'pdf.js at start',
    ],
    ...figures.map((b) => [
      `  ${b.name}`,
      kb(b.bytes),
      String(b.entryFiles),
      kb(b.gzipBytes),
      kb(b.entryFileBytes),
      kb(b.totalBytes),
      String(b.totalFiles),
      kb(b.totalGzipBytes),
      b.pdfjsAtColdStart ? 'yes' : 'no',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
  );
  return [
    'Lambda bundle folders (cold start = index.mjs + chunks it imports statically; the rest loads on demand)',
    ...lines,
  ].join('\n');
}
