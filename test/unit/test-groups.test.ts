// The fast loop's selection: a test file is fast only if nothing it imports, however deep,
// starts the local runtime, a browser or the CDK stack.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changesItsWorker,
  fastTestFiles,
  sharedRuntimeFiles,
  slowReasons,
  testFiles,
} from '../helpers/test-groups';

const ROOT = join(__dirname, '..', '..');

describe('the fast test files', () => {
  const fast = fastTestFiles(ROOT);

  it('leave out every file that starts a runtime or a browser itself', () => {
    const starters = testFiles(join(ROOT, 'test'))
      .map((f) => join('test', f))
      .filter((f) =>
        /\b(?:startTestRuntime|sharedTestRuntime|startLocalRuntime|browserSuite|startRuntimeProcess)\(/.test(
          readFileSync(join(ROOT, f), 'utf8'),
        ),
      );
    expect(starters.length).toBeGreaterThan(50);
    expect(fast.filter((f) => starters.includes(f))).toEqual([]);
  });

  it('hold every unit test and some of the local stand-ins’ tests', () => {
    expect(fast).toContain('test/unit/test-groups.test.ts');
    expect(fast).toContain('test/local/sqs.test.ts');
    expect(fast).not.toContain('test/http/bundles-create.test.ts');
    expect(fast).not.toContain('test/e2e/signing.e2e.test.ts');
    expect(fast).not.toContain('test/infra/template.test.ts');
    const units = testFiles(join(ROOT, 'test', 'unit')).map((f) => join('test', 'unit', f));
    expect(units.filter((f) => !fast.includes(f))).toEqual([]);
  });
});

describe('the files sharing a runtime', () => {
  it('change nothing the other files of their worker would see', () => {
    const shared = sharedRuntimeFiles(ROOT);
    expect(shared.length).toBeGreaterThan(30);
    // The runtime's clock, workers, stand-ins, database client (which the request counters
    // wrap), mailbox and data folder are everyone's; so are a worker's modules and globals,
    // which isolate: false keeps from file to file. Waiting for the outbox relay to be idle
    // changes nothing.
    const apart =
      /\b(?:startTestRuntime|useFakeTimers|setSystemTime|vi\.mock|vi\.spyOn|vi\.stub\w*|listMailbox|signerInbox|runScheduler|sweepOutboxes|dbRecorder|middlewareStack|process\.env)\b|\.(?:workers(?!\.outboxRelay\.idle\(\))|tsa|ca|pki|dataDir|bound)\b/;
    const touching = shared.filter((f) => apart.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(touching).toEqual([]);
  });
});

describe('a file’s slow imports', () => {
  const root = mkdtempSync(join(tmpdir(), 'test-groups-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Quoted when written, so this file's own text names no slow import for the selection to find.
  const q = (spec: string) => `'${spec}'`;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('package.json', JSON.stringify({ imports: { '#infra/*': './infra/*.ts' } }));
  write('infra/local/runtime.ts', 'export const start = 1;\n');
  write(
    'test/helpers/deep.ts',
    `import { start } from ${q('#infra/local/runtime')};\nexport const s = start;\n`,
  );
  write('test/helpers/a.ts', `import { b } from ${q('./b')};\nimport { s } from ${q('./deep')};\n`);
  write('test/helpers/b.ts', `import { a } from ${q('./a')};\nexport const b = () => a;\n`);
  write('test/helpers/pure.ts', `import { z } from ${q('zod')};\nexport const p = z;\n`);

  it('are found through helpers, subpath imports and import cycles', () => {
    write('test/x/cycle.test.ts', `import { b } from ${q('../helpers/b')};\n`);
    expect(slowReasons(root, 'test/x/cycle.test.ts')).toEqual(['infra/local/runtime.ts']);
  });

  it('include a browser package and a runtime started by its path', () => {
    write('test/x/browser.test.ts', `import { chromium } from ${q('playwright-core')};\n`);
    write(
      'test/x/spawn.test.ts',
      `import { spawn } from 'node:child_process';\nspawn('npx', ['tsx', ${q(['infra', 'local', 'main.ts'].join('/'))}]);\n`,
    );
    expect(slowReasons(root, 'test/x/browser.test.ts')).toEqual(['playwright-core']);
    expect(slowReasons(root, 'test/x/spawn.test.ts')).toEqual(['starts infra/local/main.ts']);
  });

  it('tell a file that changes its worker (mocks, fake timers, the environment) from one that does not', () => {
    const changing = [
      "vi.mock('node:fs');",
      "vi.spyOn(console, 'log');",
      'vi.useFakeTimers();',
      "vi.stubGlobal('fetch', f);",
      "process.env.PDF_FONTS_DIR = '/tmp';",
      'delete process.env.TZ;',
      'globalThis.fetch = f;',
    ];
    for (const [i, text] of changing.entries()) write(`test/w/changes-${i}.test.ts`, `${text}\n`);
    write('test/w/reads.test.ts', "if (process.env.UPDATE === '1') vi.fn();\n");
    expect(changing.map((_, i) => changesItsWorker(root, `test/w/changes-${i}.test.ts`))).toEqual(
      changing.map(() => true),
    );
    expect(changesItsWorker(root, 'test/w/reads.test.ts')).toBe(false);
  });

  it('are none for a file of logic, which is fast', () => {
    write('test/x/pure.test.ts', `import { p } from ${q('../helpers/pure')};\n`);
    expect(slowReasons(root, 'test/x/pure.test.ts')).toEqual([]);
    rmSync(join(root, 'test', 'w'), { recursive: true, force: true });
    expect(fastTestFiles(root)).toEqual(['test/x/pure.test.ts']);
  });
});
