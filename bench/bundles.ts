// Lambda bundles as deployed: built with exactly the esbuild options the CDK stack uses
// (infra/bundling.ts), then each one imported in fresh Node processes to time what a cold start
// pays for loading the code (not the Lambda runtime's own start, nor the first request).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  LAMBDA_BUNDLE_FILE,
  LAMBDA_RUNTIME_ENV,
  lambdaBuildOptions,
  lambdaEntries,
  REPO_ROOT,
  type TLambdaName,
} from '../infra/bundling';
import { median } from './stats';

export const BUNDLE_DIR = path.join(REPO_ROOT, 'bench', 'tmp', 'bundles');

export interface TBundleFigures {
  name: TLambdaName;
  bytes: number;
  /** Roughly what the deployment zip carries for it. */
  gzipBytes: number;
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

export async function benchBundles(opts: { importRuns?: number } = {}): Promise<TBundleFigures[]> {
  const runs = opts.importRuns ?? 7;
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const figures: TBundleFigures[] = [];
  for (const { name, entry } of lambdaEntries()) {
    const outdir = path.join(BUNDLE_DIR, name);
    mkdirSync(outdir, { recursive: true });
    await build(lambdaBuildOptions(entry, outdir));
    const file = path.join(outdir, LAMBDA_BUNDLE_FILE);
    const importRunsMs: number[] = [];
    // Sequential: parallel children would compete for the two cores and time each other.
    for (let i = 0; i < runs; i++) importRunsMs.push(timeImport(file));
    figures.push({
      name,
      bytes: statSync(file).size,
      gzipBytes: gzipSync(readFileSync(file)).length,
      importMedianMs: median(importRunsMs),
      importRunsMs,
    });
  }
  return figures;
}
