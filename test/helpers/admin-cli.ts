// Runs `npm run admin -- …` as the operator would (node with tsx, without npm's banner), in a
// clean environment: none of the variables that point the command elsewhere is passed on.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const TARGET_VARIABLES = [
  'DATA_DIR',
  'TABLE_NAME',
  'USAGE_PLAN_ID',
  'STRIPE_SECRET_ID',
  'SEAL_NAME',
  'DEBUG',
];

export interface TAdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command on `dataDir` (none: the command's own default or its flags decide). */
export function admin(dataDir: string | undefined, ...args: string[]): Promise<TAdminRun> {
  const env = { ...process.env };
  for (const name of TARGET_VARIABLES) delete env[name];
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/admin/main.ts', ...(dataDir ? ['--data-dir', dataDir] : []), ...args],
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
