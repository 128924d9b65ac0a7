// The layers of ARCHITECTURE.md, checked on the real source by dependency-cruiser with the rules
// of .dependency-cruiser.cjs: no cycles, use cases free of HTTP and of adapters, adapters free of
// HTTP, ports made of types only, shared/pdf and the wire schemas standing alone, response mappers
// reading only the domain and the schemas and used only by the functions, the MCP server knowing
// the service only through its REST API, shared code never reaching into functions or infra; the
// areas of the domain using only the areas declared for each, shared/pdf used by the evidence,
// composition used only at the edge, and adapters taking only types from the domain beyond its
// ports, errors and paging. The subpath imports (`#shared/...`) are followed like relative ones.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

interface TViolation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

interface TCruise {
  modules: { source: string; dependencies: { module: string; resolved: string }[] }[];
  summary: {
    violations: TViolation[];
    totalCruised: number;
    ruleSetUsed: { forbidden: { name: string }[] };
  };
}

/** dependency-cruiser's JSON answer; it exits with the count of errors found, the answer unchanged. */
function cruise(cwd: string, paths: string[]): TCruise {
  const args = [...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  let out: string;
  try {
    out = execFileSync(DEPCRUISE, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (e) {
    const stdout = (e as { stdout?: string }).stdout;
    if (!stdout) throw e;
    out = stdout;
  }
  return JSON.parse(out) as TCruise;
}

let repoCruise: TCruise | undefined;
const repo = () => {
  repoCruise ??= cruise(ROOT, ['shared', 'functions', 'infra']);
  return repoCruise;
};

/** A rule whose violations are allowed when they import types only (dependency-cruiser cannot tell). */
const isTypesOnlyRule = (v: TViolation) => v.rule.name.endsWith('-types-only');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How `source` imports `specifier`: 'types' when every import, export and `import()` of it names
 * types only; 'code' when one brings code; 'unseen' when none is found (the check must see it).
 */
function importKind(source: string, specifier: string): 'types' | 'code' | 'unseen' {
  const quoted = `['"]${escapeRegExp(specifier)}['"]`;
  const kinds: ('types' | 'code')[] = [];
  for (const m of source.matchAll(
    new RegExp(`(?:^|[;\\n])\\s*(?:import|export)\\b([^;]*?)\\bfrom\\s*${quoted}`, 'g'),
  )) {
    const clause = (m[1] ?? '').trim();
    const named = /^\{([^}]*)\}$/.exec(clause);
    const allTypes =
      clause.startsWith('type ') ||
      (named !== null &&
        (named[1] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .every((s) => s.startsWith('type ')));
    kinds.push(allTypes ? 'types' : 'code');
  }
  if (new RegExp(`(?:^|[;\\n])\\s*import\\s*${quoted}`).test(source)) kinds.push('code');
  for (const m of source.matchAll(new RegExp(`(typeof\\s+)?import\\(\\s*${quoted}\\s*\\)`, 'g'))) {
    kinds.push(m[1] ? 'types' : 'code');
  }
  if (kinds.length === 0) return 'unseen';
  return kinds.includes('code') ? 'code' : 'types';
}

/** The violations of the `-types-only` rules that bring code, as `rule: from → to (specifier)`. */
function codeAcrossTypesOnlyRules(root: string, result: TCruise): string[] {
  const bySource = new Map(result.modules.map((m) => [m.source, m]));
  return result.summary.violations.filter(isTypesOnlyRule).flatMap((v) => {
    const specifiers = (bySource.get(v.from)?.dependencies ?? [])
      .filter((d) => d.resolved === v.to)
      .map((d) => d.module);
    const source = readFileSync(join(root, v.from), 'utf8');
    return [...new Set(specifiers)]
      .map((s) => ({ s, kind: importKind(source, s) }))
      .filter(({ kind }) => kind !== 'types')
      .map(({ s, kind }) => `${v.rule.name}: ${v.from} → ${v.to} ('${s}', ${kind})`);
  });
}

describe('the layers', () => {
  it('hold: dependency-cruiser finds no forbidden dependency and no cycle', () => {
    const { summary } = repo();
    // The rules are the ones meant, over the whole source, not a file or two.
    expect(summary.ruleSetUsed.forbidden.map((r) => r.name).sort()).toEqual([
      'adapters-domain-types-only',
      'adapters-not-http',
      'composition-at-the-edge',
      'domain-area-accounts',
      'domain-area-bulk',
      'domain-area-bundles',
      'domain-area-console',
      'domain-area-envelope-templates',
      'domain-area-evidence',
      'domain-area-exports',
      'domain-area-notifications',
      'domain-area-outbox',
      'domain-area-payments',
      'domain-area-persons',
      'domain-area-scheduler',
      'domain-area-signing',
      'domain-area-templates',
      'domain-area-users',
      'domain-area-webhooks',
      'domain-areas-declared',
      'domain-kernel',
      'domain-not-adapters',
      'domain-not-http',
      'domain-outside',
      'domain-pdf',
      'domain-pdf-types-only',
      'domain-verify',
      'i18n-stands-alone',
      'mcp-only-the-api',
      'no-cycles',
      'pdf-ports-types-only',
      'pdf-stands-alone',
      'ports-types-only',
      'responses-at-the-edge',
      'responses-map-domain',
      'schemas-stand-alone',
      'shared-not-functions',
      'text-stands-alone',
    ]);
    expect(summary.totalCruised).toBeGreaterThan(300);
    expect(
      summary.violations
        .filter((v) => !isTypesOnlyRule(v))
        .map((v) => `${v.rule.name}: ${v.from} → ${v.cycle?.map((c) => c.name).join(' → ') ?? v.to}`),
    ).toEqual([]);
  });

  // dependency-cruiser's swc parser does not tell a type import from a value import, so the
  // `-types-only` rules report every import across their line and this reads each off the source.
  it('adapters, shared/pdf and the ports take only types across their `-types-only` rules', () => {
    const result = repo();
    // The rules do see imports across their lines (adapters name domain types in many places).
    expect(result.summary.violations.filter(isTypesOnlyRule).length).toBeGreaterThan(20);
    expect(codeAcrossTypesOnlyRules(ROOT, result)).toEqual([]);
  });

  it('ports import types only', () => {
    const dir = join(ROOT, 'shared', 'domain', 'ports');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const valueImports = files.flatMap((f) =>
      [
        ...readFileSync(join(dir, f), 'utf8').matchAll(
          /^(?:import\s+(?!type\b)|export\s+(?!type\b)[{*])[^;]*?from\s*'[^']+'/gm,
        ),
      ].map((m) => `${f}: ${m[0].split('\n')[0]}`),
    );
    expect(valueImports).toEqual([]);
  });

  it('tells an import of types from one of code', () => {
    expect(importKind("import type { A } from './a';", './a')).toBe('types');
    expect(importKind("import { type A, type B } from './a';", './a')).toBe('types');
    expect(importKind("import { type A, b } from './a';", './a')).toBe('code');
    expect(importKind("import {\n  type A,\n  b,\n} from '#shared/a';", '#shared/a')).toBe('code');
    expect(importKind("import type { A } from './a';\nimport { b } from './a';", './a')).toBe('code');
    expect(importKind("export * from './a';", './a')).toBe('code');
    expect(importKind("import './a';", './a')).toBe('code');
    expect(importKind("const { b } = await import('./a');", './a')).toBe('code');
    expect(importKind("type T = typeof import('./a');", './a')).toBe('types');
    expect(importKind("import { b } from './ab';", './a')).toBe('unseen');
  });

  // The layers are only as good as the edges dependency-cruiser sees: an import written as a
  // subpath (`#shared/...`, package.json `imports`) must resolve to its file and meet the rules.
  it('sees edges written as `#shared/...` subpath imports', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { imports?: object };
    expect(pkg.imports).toMatchObject({ '#shared/*': './shared/*.ts' });
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      const files: Record<string, string> = {
        'package.json': JSON.stringify({ type: 'module', imports: pkg.imports }),
        'shared/adapters/system.ts': 'export const clock = 1;\n',
        'shared/domain/accounts/thing.ts': 'export type TThing = number;\nexport const thing = 1;\n',
        // Forbidden: the domain importing an adapter.
        'shared/domain/accounts/uses-adapter.ts':
          "import { clock } from '#shared/adapters/system';\nexport const y = clock;\n",
        // Allowed: an adapter naming a domain type; not allowed: taking domain code.
        'shared/adapters/typed.ts':
          "import type { TThing } from '#shared/domain/accounts/thing';\nexport const t: TThing = 1;\n",
        'shared/adapters/coded.ts':
          "import { thing } from '#shared/domain/accounts/thing';\nexport const c = thing;\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      for (const f of ['.dependency-cruiser.cjs', 'tsconfig.json']) copyFileSync(join(ROOT, f), join(dir, f));
      const result = cruise(dir, ['shared']);
      expect(
        result.summary.violations
          .filter((v) => !isTypesOnlyRule(v))
          .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
      ).toEqual([
        'domain-not-adapters: shared/domain/accounts/uses-adapter.ts → shared/adapters/system.ts',
        'domain-outside: shared/domain/accounts/uses-adapter.ts → shared/adapters/system.ts',
      ]);
      expect(codeAcrossTypesOnlyRules(dir, result)).toEqual([
        "adapters-domain-types-only: shared/adapters/coded.ts → shared/domain/accounts/thing.ts ('#shared/domain/accounts/thing', code)",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
