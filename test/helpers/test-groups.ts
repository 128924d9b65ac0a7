// Which test files need the whole local runtime or a browser, read from what they import. The
// fast loop (`npm run test:fast`) runs the others; deciding by the import graph, not by folder,
// means a test that starts the runtime can never slip into it, wherever it lives.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Loaded by vitest.config.ts (before any transform), so it imports nothing of the repository's own.

/**
 * What makes a test slow: the local runtime (in-process, or in a child process that the
 * helper or the test starts by its path), a browser, or synthesising the CDK stack.
 */
export const SLOW_MODULES = [
  'infra/local/runtime.ts',
  'infra/local/main.ts',
  'test/helpers/runtime-process.ts',
  'test/helpers/runtime-process-main.ts',
  'infra/stack.ts',
  'aws-cdk-lib',
  'playwright-core',
  '@axe-core/playwright',
];

/** Every test file under `dir`, relative to `root`. */
export function testFiles(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path, root);
    return e.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
// A file started as a child process is named by its path in a string, not imported; only a
// file that starts processes can do that.
const STARTS_PROCESS = /\b(?:spawn|spawnSync|execFile|execFileSync|fork)\s*\(/;
const SPAWNED = /['"`]([\w./-]*infra\/local\/main(?:\.ts)?|[\w./-]*runtime-process-main(?:\.ts)?)['"`]/g;

/** The first path a package.json `imports` target names, whatever the conditions. */
function firstTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return target.map(firstTarget).find(Boolean);
  if (target && typeof target === 'object') return Object.values(target).map(firstTarget).find(Boolean);
  return undefined;
}

/** A `#…` subpath import as package.json's `imports` maps it, relative to `root`. */
function subpathTarget(root: string, spec: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    imports?: Record<string, unknown>;
  };
  for (const [key, target] of Object.entries(pkg.imports ?? {})) {
    const path = firstTarget(target);
    if (!path) continue;
    const [prefix = '', suffix = ''] = key.split('*');
    if (!key.includes('*')) {
      if (spec === key) return path;
    } else if (spec.startsWith(prefix) && spec.endsWith(suffix)) {
      return path.replace('*', spec.slice(prefix.length, spec.length - suffix.length));
    }
  }
  return undefined;
}

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

interface TModule {
  /** The slow modules this file names itself. */
  slow: string[];
  /** The repository's files it imports. */
  imports: string[];
}

function readModule(root: string, abs: string): TModule {
  const slow: string[] = [];
  const imports: string[] = [];
  const rel = relative(root, abs);
  if (SLOW_MODULES.includes(rel)) slow.push(rel);
  const text = readFileSync(abs, 'utf8');
  if (STARTS_PROCESS.test(text)) for (const m of text.matchAll(SPAWNED)) slow.push(`starts ${m[1]}`);
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? '';
    const local = spec.startsWith('#') ? subpathTarget(root, spec) : spec;
    if (local?.startsWith('.')) {
      const target = resolveLocal(spec.startsWith('#') ? join(root, 'package.json') : abs, local);
      if (target) imports.push(target);
    } else if (SLOW_MODULES.some((s) => spec === s || spec.startsWith(`${s}/`))) {
      slow.push(spec);
    }
  }
  return { slow, imports };
}

/** The slow modules a file reaches through its imports, relative to `root`; none for a fast file. */
export function slowReasons(root: string, file: string, modules = new Map<string, TModule>()): string[] {
  const reasons = new Set<string>();
  const visited = new Set<string>();
  const todo = [resolve(root, file)];
  for (let abs = todo.pop(); abs !== undefined; abs = todo.pop()) {
    if (visited.has(abs)) continue;
    visited.add(abs);
    let mod = modules.get(abs);
    if (!mod) {
      mod = readModule(root, abs);
      modules.set(abs, mod);
    }
    for (const r of mod.slow) reasons.add(r);
    todo.push(...mod.imports);
  }
  return [...reasons];
}

/** The test files (relative to `root`) that need neither the runtime nor a browser. */
export function fastTestFiles(root: string): string[] {
  const modules = new Map<string, TModule>();
  return testFiles(join(root, 'test'))
    .map((f) => join('test', f))
    .filter((f) => slowReasons(root, f, modules).length === 0)
    .sort();
}

/**
 * The test files that share one runtime per worker (test/helpers/shared-runtime.ts): those that
 * call sharedTestRuntime(). They run in a project without isolation, which is what lets the
 * runtime outlive each file.
 */
export function sharedRuntimeFiles(root: string): string[] {
  return testFiles(join(root, 'test'))
    .map((f) => join('test', f))
    .filter((f) => /\bsharedTestRuntime\(/.test(readFileSync(join(root, f), 'utf8')))
    .sort();
}

/**
 * What a test file may change in its worker for the files after it, were they to share one:
 * mocked modules and functions, fake timers, stubbed globals, the environment.
 */
const CHANGES_WORKER =
  /\bvi\.(?:mock|doMock|spyOn|stub\w*|useFakeTimers)\b|\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|\bdelete process\.env\b|\bglobalThis\.\w+\s*=[^=]/;

/** Whether a test file changes its worker in a way the next file would see (see CHANGES_WORKER). */
export function changesItsWorker(root: string, file: string): boolean {
  return CHANGES_WORKER.test(readFileSync(join(root, file), 'utf8'));
}
