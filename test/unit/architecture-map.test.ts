// The map (ARCHITECTURE.md) kept true: its layer table says exactly what the dependency rules of
// .dependency-cruiser.cjs allow, it stays short enough to read in one sitting, every relative link
// in it and in docs/ lands on a file (and heading) that exists, and every section the source
// cites by name (ARCHITECTURE.md, "Evidence") is a heading or a row of its concept table.
//
// The layer table is the markdown table whose header is `| Layer | Folder | May import |`. A row
// names a layer, its folder (or file) in backticks, and the layers it may import: `any`, `any but`
// followed by layer names, a list of layer names, or `nothing`; then, where a rule lets it import
// another layer's types only, `; types only:` and those layers. Names are in backticks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const MAP = join(ROOT, 'ARCHITECTURE.md');
const MAX_MAP_LINES = 300;

// --- the layer table ---------------------------------------------------------------------------

interface TLayerRow {
  layer: string;
  folder: string;
  mayImport: string;
}

const TABLE_HEADER = /^\|\s*Layer\s*\|\s*Folder\s*\|\s*May import\s*\|\s*$/;
// The second table: the areas of the domain, and which other areas each may use.
const AREA_HEADER = /^\|\s*Area\s*\|\s*Folder\s*\|\s*May use\s*\|\s*$/;

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

const unticked = (cell: string) => cell.replace(/[`*]/g, '').trim();

/** The rows of the map's layer table (or, given its header, of the area table), as written. */
function layerRows(markdown: string, header = TABLE_HEADER): TLayerRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => header.test(l));
  if (start < 0) throw new Error(`ARCHITECTURE.md has no table headed like ${header}`);
  const rows: TLayerRow[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    const [layer = '', folder = '', mayImport = ''] = cellsOf(line);
    rows.push({ layer: unticked(layer), folder: unticked(folder), mayImport });
  }
  return rows;
}

/** What a row may import: layers in full, and layers whose types only. */
interface TAllowed {
  full: Set<string>;
  types: Set<string>;
}

const TYPES_CLAUSE = /;\s*types only:\s*(.*)$/i;

/** What a "May import" cell allows, out of all the table's layers but its own, or why it cannot tell. */
function allowedByCell(cell: string, self: string, layers: string[]): TAllowed | string {
  const others = layers.filter((l) => l !== self);
  const namesIn = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
  const typesPart = TYPES_CLAUSE.exec(cell)?.[1];
  const main = cell.replace(TYPES_CLAUSE, '');
  const names = namesIn(main);
  const types = new Set(typesPart === undefined ? [] : namesIn(typesPart));
  const unknown = [...names, ...types].filter((n) => !others.includes(n));
  if (unknown.length > 0) return `names no other layer of the table: ${unknown.join(', ')}`;
  if (typesPart !== undefined && (types.size === 0 || typesPart.replace(/`[^`]*`|[,\s]/g, '') !== '')) {
    return 'has a `types only:` clause that is not a list of layer names';
  }
  const words = main
    .replace(/`[^`]*`/g, '')
    .replace(/[,.]/g, ' ')
    .trim()
    .toLowerCase();
  let full: Set<string> | undefined;
  if (words === 'any' && names.length === 0) full = new Set(others);
  if (words === 'any but' && names.length > 0) full = new Set(others.filter((l) => !names.includes(l)));
  if (words === 'nothing' && names.length === 0) full = new Set();
  if (words === '' && names.length > 0) full = new Set(names);
  if (full === undefined) return 'is not `any`, `any but` and layer names, layer names, or `nothing`';
  return { full, types };
}

/** The cell to write: the shorter of the list and its complement, then the layers of types only. */
function cellFor(allowed: TAllowed, self: string, layers: string[]): string {
  const others = layers.filter((l) => l !== self);
  const tick = (names: string[]) => names.map((n) => `\`${n}\``).join(', ');
  const listed = others.filter((l) => allowed.full.has(l));
  const refused = others.filter((l) => !allowed.full.has(l));
  const main =
    refused.length === 0
      ? 'any'
      : listed.length === 0
        ? 'nothing'
        : refused.length < listed.length
          ? `any but ${tick(refused)}`
          : tick(listed);
  const types = others.filter((l) => allowed.types.has(l));
  return types.length === 0 ? main : `${main}; types only: ${tick(types)}`;
}

// --- the dependency rules ----------------------------------------------------------------------

interface TPathCondition {
  path?: string | string[];
  pathNot?: string | string[];
  dependencyTypesNot?: string[];
  [other: string]: unknown;
}

interface TRule {
  name: string;
  severity?: string;
  from: TPathCondition;
  to: TPathCondition;
}

const patterns = (p: string | string[] | undefined) => (p === undefined ? [] : Array.isArray(p) ? p : [p]);

/** Whether a module at `path` meets a rule's `from` or `to`: any `path` matches, no `pathNot` does. */
function meets(condition: TPathCondition, path: string): boolean {
  const yes = patterns(condition.path);
  const no = patterns(condition.pathNot);
  return (
    (yes.length === 0 || yes.some((p) => new RegExp(p).test(path))) &&
    !no.some((p) => new RegExp(p).test(path))
  );
}

/**
 * A rule that spares type imports forbids all but types: one with `dependencyTypesNot:
 * ['type-only']`, or an `info` rule named `…-types-only`, whose imports layers.test.ts reads off
 * the source and fails on any that brings code.
 */
const sparesTypes = (rule: TRule) =>
  rule.to.dependencyTypesNot !== undefined || (rule.severity === 'info' && rule.name.endsWith('-types-only'));

/** The rules that forbid an import by where it goes; cycles are another kind of rule, kept apart. */
function pathRules(config: { forbidden: TRule[] }): TRule[] {
  return config.forbidden
    .filter((rule) => rule.to.circular === undefined)
    .map((rule) => {
      const other = [
        ...Object.keys(rule.from).filter((k) => k !== 'path' && k !== 'pathNot'),
        ...Object.keys(rule.to).filter((k) => k !== 'path' && k !== 'pathNot' && k !== 'dependencyTypesNot'),
      ];
      const spared = rule.to.dependencyTypesNot;
      if (spared !== undefined && (spared.length !== 1 || spared[0] !== 'type-only')) {
        other.push(`dependencyTypesNot ${JSON.stringify(spared)}`);
      }
      if (other.length > 0) {
        throw new Error(
          `rule ${rule.name} uses ${other.join(', ')}: test/unit/architecture-map.test.ts reads only path, pathNot and dependencyTypesNot ['type-only']; teach it these`,
        );
      }
      return rule;
    });
}

/** A module that stands for a row's folder (or the file itself) when the rules are asked. */
const sampleOf = (folder: string) => (folder.endsWith('/') ? `${folder}sample.ts` : folder);

/** The rules that forbid layer `from` to import layer `to`: none, some sparing types, or one outright. */
function forbidding(rules: TRule[], from: TLayerRow, to: TLayerRow): TRule[] {
  return rules.filter((r) => meets(r.from, sampleOf(from.folder)) && meets(r.to, sampleOf(to.folder)));
}

/** What the rules allow a row to import. */
function allowedByRules(rows: TLayerRow[], rules: TRule[], row: TLayerRow): TAllowed {
  const allowed: TAllowed = { full: new Set(), types: new Set() };
  for (const to of rows.filter((r) => r !== row)) {
    const against = forbidding(rules, row, to);
    if (against.length === 0) allowed.full.add(to.layer);
    else if (against.every(sparesTypes)) allowed.types.add(to.layer);
  }
  return allowed;
}

/** What the table says of one edge, and what the rules say, in words. */
const edgeWords = (allowed: TAllowed, layer: string) =>
  allowed.full.has(layer)
    ? 'may import'
    : allowed.types.has(layer)
      ? 'may import only the types of'
      : 'may not import';

/** Every difference between the table and the rules, each naming the row, the cell and its fix. */
function tableVersusRules(
  rows: TLayerRow[],
  rules: TRule[],
  table = 'layer table',
  column = 'May import',
): string[] {
  const layers = rows.map((r) => r.layer);
  const faults: string[] = [];
  for (const row of rows) {
    const where = `ARCHITECTURE.md, ${table}, row \`${row.layer}\`, column "${column}"`;
    const allowed = allowedByRules(rows, rules, row);
    const said = allowedByCell(row.mayImport, row.layer, layers);
    const fix = `write: ${cellFor(allowed, row.layer, layers)}`;
    if (typeof said === 'string') {
      faults.push(`${where} ${said}; ${fix}`);
      continue;
    }
    const why = rows
      .filter((to) => to !== row && edgeWords(said, to.layer) !== edgeWords(allowed, to.layer))
      .map((to) => {
        const against = forbidding(rules, row, to).map((r) => r.name);
        const by = against.length === 0 ? 'as no rule forbids it' : `by rule ${against.join(', ')}`;
        return `\`${row.layer}\` ${edgeWords(allowed, to.layer)} \`${to.layer}\` ${by}`;
      });
    const shown = why.length > 3 ? [...why.slice(0, 3), `and ${why.length - 3} more`] : why;
    if (why.length > 0) faults.push(`${where}: ${shown.join('; ')}; ${fix}`);
  }
  return faults;
}

/** The folders and files a layer must cover: the top of infra/ and functions/, and what shared/ holds. */
function sourceTops(): string[] {
  const shared = readdirSync(join(ROOT, 'shared')).map((name) =>
    statSync(join(ROOT, 'shared', name)).isDirectory() ? `shared/${name}/` : `shared/${name}`,
  );
  return ['infra/', 'functions/', ...shared];
}

// --- links -------------------------------------------------------------------------------------

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, repeated ones numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(text as string);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The text without fenced blocks, whose lines are code, not headings or links. */
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The text without fenced blocks and inline code, where brackets are code, not links. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

/** The relative links of a markdown file: `[text](target)`, no scheme. */
function relativeLinks(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** Every relative link of a file that lands nowhere: no such file, or no such heading in it. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const name = `${relative(ROOT, file)} → ${link}`;
    if (!existsSync(target)) broken.push(`${name}: no such file`);
    else if (
      anchor !== undefined &&
      target.endsWith('.md') &&
      !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
    ) {
      broken.push(`${name}: no heading with that anchor`);
    }
  }
  return broken;
}

// --- sections cited by name --------------------------------------------------------------------

const CITED = [
  /ARCHITECTURE\.md,\s*"([^"]+)"/g,
  /ARCHITECTURE\.md\s*\("([^"]+)"\)/g,
  /"([^"]+)"\s+in\s+ARCHITECTURE\.md/g,
];

/** A name as cited, joined again where a comment wrapped it onto its next line. */
const unwrapped = (name: string) => name.replace(/\s*\n\s*(?:\/\/|\*)?\s*/g, ' ');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : /\.(ts|js|mjs|cjs|md)$/.test(e.name) ? [path] : [];
  });
}

/** Section names the source cites in ARCHITECTURE.md, with where. */
function citedSections(): { name: string; where: string }[] {
  const files = [
    ...['shared', 'functions', 'infra', 'bench', 'test', 'docs'].flatMap((d) => sourceFiles(join(ROOT, d))),
  ];
  files.push(join(ROOT, 'README.md'), join(ROOT, '.dependency-cruiser.cjs'));
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return CITED.flatMap((re) =>
      [...text.matchAll(re)].map((m) => ({ name: unwrapped(m[1] as string), where: relative(ROOT, file) })),
    );
  });
}

/** The names a reader finds in the map: its headings, and the first column of its concept table. */
function namesInMap(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const [, h] of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) names.add((h as string).trim());
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^\|\s*Concept\s*\|/.test(l));
  for (const line of start < 0 ? [] : lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    names.add(unticked(cellsOf(line)[0] ?? ''));
  }
  return names;
}

// --- the tests ---------------------------------------------------------------------------------

const mapText = () => readFileSync(MAP, 'utf8');
const rules = () => pathRules(createRequire(join(ROOT, 'package.json'))('./.dependency-cruiser.cjs'));

describe('the map', () => {
  it('has a layer table that says exactly what .dependency-cruiser.cjs allows', () => {
    const rows = layerRows(mapText());
    expect(rows.length).toBeGreaterThan(5);
    expect(tableVersusRules(rows, rules())).toEqual([]);
  });

  it('has an area table that says exactly which domain area the rules let use which', () => {
    const areas = layerRows(mapText(), AREA_HEADER);
    expect(areas.length).toBeGreaterThan(5);
    expect(tableVersusRules(areas, rules(), 'area table', 'May use')).toEqual([]);
    const folders = readdirSync(join(ROOT, 'shared', 'domain'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'ports')
      .map((d) => `shared/domain/${d.name}/`);
    expect(folders.filter((f) => !areas.some((a) => a.folder === f)).map((f) => `${f}: add a row`)).toEqual(
      [],
    );
  });

  it('has a layer row for every folder it covers, each folder real, each layer once', () => {
    const rows = layerRows(mapText());
    const folders = rows.map((r) => r.folder);
    expect(
      rows
        .filter((r) => !existsSync(join(ROOT, r.folder)))
        .map((r) => `row \`${r.layer}\`: ${r.folder} does not exist`),
    ).toEqual([]);
    expect(
      sourceTops()
        .filter((top) => !folders.some((f) => top === f || top.startsWith(f)))
        .map((top) => `${top} is in no row of the layer table: add one`),
    ).toEqual([]);
    const names = rows.map((r) => r.layer);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it(`is at most ${MAX_MAP_LINES} lines`, () => {
    const lines = mapText().split('\n').length - (mapText().endsWith('\n') ? 1 : 0);
    expect(lines, 'move detail to a page of docs/architecture/ and link it').toBeLessThanOrEqual(
      MAX_MAP_LINES,
    );
  });

  it('and the docs link only to files and headings that exist', () => {
    const files = [MAP, join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    expect(files.length).toBeGreaterThan(5);
    expect(relativeLinks(mapText()).length).toBeGreaterThan(10);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('names every section the source cites in it, in a heading or its concept table', () => {
    const cited = citedSections();
    expect(cited.length).toBeGreaterThan(10);
    const names = namesInMap(mapText());
    expect(cited.filter((c) => !names.has(c.name)).map((c) => `${c.where}: "${c.name}"`)).toEqual([]);
  });
});

describe('the map test itself', () => {
  const rows: TLayerRow[] = [
    { layer: 'a', folder: 'a/', mayImport: '`b`' },
    { layer: 'b', folder: 'b/', mayImport: 'nothing' },
    { layer: 'c', folder: 'c.ts', mayImport: 'any' },
  ];
  const someRules: TRule[] = [
    { name: 'a-not-c', from: { path: '^a/' }, to: { path: '^c\\.ts$' } },
    { name: 'b-alone', from: { path: '^b/' }, to: { path: '.', pathNot: '^b/' } },
  ];

  it('finds nothing when table and rules agree', () => {
    expect(tableVersusRules(rows, someRules)).toEqual([]);
  });

  it('names the row, the rule and the cell to write when they differ', () => {
    const wrong = rows.map((r) => (r.layer === 'a' ? { ...r, mayImport: 'any' } : r));
    expect(tableVersusRules(wrong, someRules)).toEqual([
      'ARCHITECTURE.md, layer table, row `a`, column "May import": `a` may not import `c` by rule a-not-c; write: `b`',
    ]);
    const narrow = rows.map((r) => (r.layer === 'c' ? { ...r, mayImport: '`a`' } : r));
    expect(tableVersusRules(narrow, someRules)).toEqual([
      'ARCHITECTURE.md, layer table, row `c`, column "May import": `c` may import `b` as no rule forbids it; write: any',
    ]);
  });

  it('reads a rule that spares type imports as `types only`', () => {
    const typesOnly: TRule[] = [
      ...someRules,
      {
        name: 'c-types-of-a',
        from: { path: '^c\\.ts$' },
        to: { path: '^a/', dependencyTypesNot: ['type-only'] },
      },
    ];
    const said = rows.map((r) => (r.layer === 'c' ? { ...r, mayImport: '`b`; types only: `a`' } : r));
    expect(tableVersusRules(said, typesOnly)).toEqual([]);
    expect(tableVersusRules(rows, typesOnly)).toEqual([
      'ARCHITECTURE.md, layer table, row `c`, column "May import": `c` may import only the types of `a` by rule c-types-of-a; write: `b`; types only: `a`',
    ]);
  });

  it('reads `any but` and refuses a cell it cannot read', () => {
    expect(allowedByCell('any but `a`', 'c', ['a', 'b', 'c'])).toEqual({
      full: new Set(['b']),
      types: new Set(),
    });
    expect(typeof allowedByCell('most of them', 'c', ['a', 'b', 'c'])).toBe('string');
    expect(typeof allowedByCell('`z`', 'c', ['a', 'b', 'c'])).toBe('string');
  });

  it('refuses a rule it cannot read rather than misreading it', () => {
    expect(() =>
      pathRules({ forbidden: [{ name: 'odd', from: { path: '^a/' }, to: { dependencyTypes: ['npm'] } }] }),
    ).toThrow(/odd uses dependencyTypes/);
  });

  it('makes anchors as GitHub does', () => {
    expect([...anchorsOf('# A\n## HTTP conventions (`shared/http/`)\n## A\n```\n# not one\n```')]).toEqual([
      'a',
      'http-conventions-sharedhttp',
      'a-1',
    ]);
  });
});
