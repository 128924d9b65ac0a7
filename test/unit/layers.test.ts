// The layers of ARCHITECTURE.md, checked on the real source by dependency-cruiser with the rules
// of .dependency-cruiser.cjs: no cycles, use cases free of HTTP and of adapters, adapters free of
// HTTP, ports made of types only, shared/pdf and the wire schemas standing alone, response mappers
// reading only the domain and the schemas and used only by the functions, the MCP server knowing
// the service only through its REST API, shared code never reaching into functions or infra.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

interface TCruise {
  summary: {
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
    totalCruised: number;
    ruleSetUsed: { forbidden: { name: string }[] };
  };
}

describe('the layers', () => {
  it('hold: dependency-cruiser finds no forbidden dependency and no cycle', () => {
    const out = execFileSync(
      join(ROOT, 'node_modules', '.bin', 'depcruise'),
      ['shared', 'functions', 'infra', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    const { summary } = JSON.parse(out) as TCruise;
    // The rules are the ones meant, over the whole source, not a file or two.
    expect(summary.ruleSetUsed.forbidden.map((r) => r.name).sort()).toEqual([
      'adapters-not-http',
      'domain-not-adapters',
      'domain-not-http',
      'i18n-stands-alone',
      'mcp-only-the-api',
      'no-cycles',
      'pdf-stands-alone',
      'responses-at-the-edge',
      'responses-map-domain',
      'schemas-stand-alone',
      'shared-not-functions',
      'text-stands-alone',
    ]);
    expect(summary.totalCruised).toBeGreaterThan(300);
    expect(
      summary.violations.map(
        (v) => `${v.rule.name}: ${v.from} → ${v.cycle?.map((c) => c.name).join(' → ') ?? v.to}`,
      ),
    ).toEqual([]);
  });

  // dependency-cruiser's swc parser does not tell a type import from a value import, so this
  // one is read off the source: a port names types and brings no code with it.
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
});
