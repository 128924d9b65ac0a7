// A local runtime on a folder of its own, for the tests of operator commands: the commands reach
// the runtime's data through the folder (its runtime.json names the runtime's dynalite), as they
// reach a running `npm start`. Started before the file's tests, stopped and removed after them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TRuntimeOptions } from '#infra/local/runtime-options';
import { admin, type TAdminRun } from './admin-cli';
import { startTestRuntime } from './runtime';

export interface TRuntimeOnDisk {
  /** The runtime's folder: what `--data-dir` names. */
  readonly dir: string;
  readonly runtime: TRuntime;
  /** An operator command on the folder that succeeded, or a failure showing what it said. */
  ok(...args: string[]): Promise<TAdminRun>;
}

/** Registers the file's hooks; the answer's `dir` and `runtime` are there once `beforeAll` ran. */
export function runtimeOnDisk(prefix: string, options: TRuntimeOptions = {}): TRuntimeOnDisk {
  let dir = '';
  let runtime: TRuntime | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    runtime = await startTestRuntime({ ...options, memory: false, dataDir: dir });
  }, 60_000);
  afterAll(async () => {
    await runtime?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get runtime() {
      if (!runtime) throw new Error('the runtime on disk starts in beforeAll');
      return runtime;
    },
    async ok(...args: string[]) {
      const run = await admin(dir, ...args);
      expect(run, run.stderr).toMatchObject({ code: 0 });
      return run;
    },
  };
}
