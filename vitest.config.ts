import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import {
  changesItsWorker,
  fastTestFiles,
  sharedRuntimeFiles,
  testFiles,
} from './test/helpers/test-groups.ts';

// The fast loop: every test file that needs neither the local runtime nor a browser, found from
// what each file imports (test/helpers/test-groups.ts), so none that starts one can slip in.
const fast = fastTestFiles(import.meta.dirname);
// Most share their worker's loaded modules (isolate: false), loading them once, not per file; a
// file that mocks, fakes timers or sets the environment keeps a worker to itself.
const fastIsolated = fast.filter((f) => changesItsWorker(import.meta.dirname, f));
// The HTTP tests that share one runtime per worker: no isolation, so it outlives each file.
const shared = sharedRuntimeFiles(import.meta.dirname);
// The template tests, one file per construct concern, read the stacks synthesized once per worker
// (test/infra/stack-template.ts caches them): without isolation, no file synthesizes them again.
const templates = ['test/infra/template-*.test.ts'];
// The rest start runtimes, browsers or processes of their own. They too share their worker's
// loaded modules: evaluating the runtime's module graph again for each file cost more CPU than
// most of these files' tests. Each file still starts and stops its own runtime; a file that
// changes its worker (mocks, spies, the environment) keeps a worker to itself.
const runtime = testFiles(join(import.meta.dirname, 'test'))
  .map((f) => join('test', f))
  .filter((f) => !fast.includes(f) && !shared.includes(f) && !/^test\/infra\/template-/.test(f));
const runtimeIsolated = runtime.filter((f) => changesItsWorker(import.meta.dirname, f));

export default defineConfig({
  test: {
    // HTTP tests start a whole local runtime; give them room on a 2-core machine.
    testTimeout: 30_000,
    // Records which AWS actions each function used, for the unused-grants report.
    globalSetup: ['test/helpers/iam-usage-setup.ts'],
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report; .ci/run prints the plain pass/fail counts from it.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results.json' },
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: fast.filter((f) => !fastIsolated.includes(f)), isolate: false },
      },
      { extends: true, test: { name: 'fast-isolated', include: fastIsolated } },
      { extends: true, test: { name: 'shared-runtime', include: shared, isolate: false } },
      { extends: true, test: { name: 'templates', include: templates, isolate: false } },
      {
        extends: true,
        test: {
          name: 'runtime',
          include: runtime.filter((f) => !runtimeIsolated.includes(f)),
          isolate: false,
        },
      },
      { extends: true, test: { name: 'runtime-isolated', include: runtimeIsolated } },
    ],
  },
});
