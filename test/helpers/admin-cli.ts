// Runs `npm run admin -- …` as the operator would (node, without npm's banner), in a process of
// its own and a clean environment: none of the variables that point the command elsewhere is
// passed on.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const TARGET_VARIABLES = [
  'DATA_DIR',
  'TABLE_NAME',
  'USAGE_PLAN_ID',
  'STRIPE_SECRET_ID',
  'SEAL_NAME',
  'DOCUMENTS_NAME',
  'DEBUG',
];

export interface TAdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The command's code as one file, built once per test file: the same code `npm run admin` runs
 * through tsx, without compiling it again for each of the dozens of commands a test file runs
 * (about a third of each command's start). Packages stay outside, loaded from node_modules.
 */
let built: Promise<string> | undefined;
function adminScript(): Promise<string> {
  built ??= (async () => {
    const out = await build({
      entryPoints: [join(ROOT, 'infra/admin/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      write: false,
    });
    const code = out.outputFiles[0]!.contents;
    // Named by its content, so test files running at once share one file. Builds of other code
    // are removed once an hour old: checkouts that share node_modules (git worktrees) build
    // their own at the same time, and must not lose theirs mid-run.
    const name = `admin-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const dir = join(ROOT, 'node_modules', '.cache', 'esign-test');
    mkdirSync(dir, { recursive: true });
    const anHourAgo = Date.now() - 3_600_000;
    for (const old of readdirSync(dir)) {
      const path = join(dir, old);
      if (
        old.endsWith('.mjs') &&
        old !== name &&
        (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < anHourAgo
      )
        rmSync(path, { force: true });
    }
    const file = join(dir, name);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
    return file;
  })();
  return built;
}

/** The command on `dataDir` (none: the command's own default or its flags decide). */
export async function admin(dataDir: string | undefined, ...args: string[]): Promise<TAdminRun> {
  const env = { ...process.env };
  for (const name of TARGET_VARIABLES) delete env[name];
  const script = await adminScript();
  return new Promise((done) => {
    execFile(
      process.execPath,
      [script, ...(dataDir ? ['--data-dir', dataDir] : []), ...args],
      { cwd: ROOT, env },
      (err, stdout, stderr) =>
        done({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A successful run's stdout, or a failure that shows what the command said. */
export async function adminOk(dataDir: string | undefined, ...args: string[]): Promise<string> {
  const run = await admin(dataDir, ...args);
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return run.stdout;
}
