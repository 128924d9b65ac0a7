// Calculated fields' formulas (shared/text/formula.js): parsed to a tree and evaluated over it,
// never run as code. The property test checks random formulas against JavaScript's own
// arithmetic, which here (a test, on formulas it wrote itself) may be run as code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculatedValues,
  evaluateTree,
  FORMULA_LIMITS,
  formatNumber,
  formulaCycle,
  parseFormula,
  parseNumberFormat,
  storedNumber,
} from '../../shared/text/formula.js';

/** The formula's stored result over `values` (keys not given count as empty). */
const calc = (formula: string, values: Record<string, string> = {}) =>
  calculatedValues([{ key: 'out', formula }], (k) => values[k]).get('out');

describe('a formula', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['10 - 4 - 3', '3'],
    ['2 * 3 / 4', '1.5'],
    ['-2 * -3', '6'],
    ['- (1 + 2)', '-3'],
    ['7 × 6 ÷ 2 − 1', '20'],
    ['.5 + 0.25', '0.75'],
    ['0.1 + 0.2', '0.3'],
    ['sum(1, 2, 3) + min(4, 5) + max(6, 7)', '17'],
    ['round(2.5) + round(-2.5)', '0'],
    ['round(1.005, 2)', '1.01'],
    ['round(10 / 3, 2)', '3.33'],
    ['1 / 0', ''],
    ['1 / (2 - 2) + 5', ''],
  ])('%s is "%s"', (formula, expected) => {
    expect(calc(formula)).toBe(expected);
  });

  it('reads fields by key, an empty or half-typed one as 0, braces for keys with "-"', () => {
    expect(calc('qty * price + {ship-fee}', { qty: '3', price: '2.5', 'ship-fee': '4' })).toBe('11.5');
    expect(calc('qty * price + {ship-fee}', { qty: '3', price: '' })).toBe('0');
    expect(calc('a + b', { a: '1.', b: '2' })).toBe('2');
  });

  it('says what is wrong and where', () => {
    const at = (f: string) => {
      const r = parseFormula(f);
      return r.ok ? undefined : [r.problem.at, r.problem.message];
    };
    expect(at('1 + * 2')).toEqual([4, 'Unexpected "*" (at character 5).']);
    expect(at('(1 + 2')).toEqual([6, 'The formula ends too early (at character 7).']);
    expect(at('1 + 2)')).toEqual([5, 'Unexpected ")" (at character 6).']);
    expect(at('a ; b')?.[0]).toBe(2);
    expect(at('avg(1, 2)')?.[1]).toContain('"avg" is not a function');
    expect(at('round(1, x)')?.[1]).toContain('round takes a whole number of digits');
    expect(at('1.2.3')?.[0]).toBe(3);
    expect(at('1e3')?.[0]).toBe(1);
    expect(at('')?.[1]).toBe('A formula may not be empty.');
  });

  it('keeps to its limits: length, nesting, references', () => {
    expect(parseFormula(`${'1+'.repeat(300)}1`).ok).toBe(false);
    expect(
      parseFormula(`${'('.repeat(FORMULA_LIMITS.depth + 1)}1${')'.repeat(FORMULA_LIMITS.depth + 1)}`).ok,
    ).toBe(false);
    expect(
      parseFormula(`${'('.repeat(FORMULA_LIMITS.depth - 1)}1${')'.repeat(FORMULA_LIMITS.depth - 1)}`).ok,
    ).toBe(true);
    expect(parseFormula(`${'-'.repeat(100)}1`).ok).toBe(false);
    const refs = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join('+');
    expect(parseFormula(refs(FORMULA_LIMITS.references)).ok).toBe(true);
    expect(parseFormula(refs(FORMULA_LIMITS.references + 1)).ok).toBe(false);
  });

  it('runs no code and reads nothing off a prototype', () => {
    for (const f of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const parsed = parseFormula(f);
      expect(parsed.ok && parsed.references).toEqual([f]);
      expect(calc(`${f} + 1`)).toBe('1');
    }
    expect(parseFormula('constructor(1)').ok).toBe(false);
    expect(parseFormula('sum.constructor("return 1")()').ok).toBe(false);
    expect(parseFormula('a["b"]').ok).toBe(false);
    expect(parseFormula('`1`').ok).toBe(false);
  });

  it('finds circles among formulas, and computes one formula over another', () => {
    const deps = new Map([
      ['total', ['sub', 'tax']],
      ['tax', ['sub']],
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(formulaCycle(deps)).toEqual(['a', 'b', 'c', 'a']);
    expect(formulaCycle(new Map([['t', ['s']]]))).toBeUndefined();
    const fields = [
      { key: 'sub' },
      { key: 'tax', formula: 'sub * 0.2' },
      { key: 'total', formula: 'sub + tax' },
    ];
    expect([...calculatedValues(fields, (k) => (k === 'sub' ? '100' : undefined))]).toEqual([
      ['tax', '20'],
      ['total', '120'],
    ]);
  });

  it('formats in the bundle language: decimals, a currency, or as it is', () => {
    expect(parseNumberFormat('decimals:7')).toBeUndefined();
    expect(parseNumberFormat('currency:usd')).toBeUndefined();
    expect(formatNumber('1234.5', 'currency:USD', 'en')).toBe('$1,234.50');
    expect(formatNumber('1234.5', 'currency:EUR', 'de')).toBe('1.234,50\u00a0€');
    expect(formatNumber('1234.5', 'decimals:2', 'fr')).toBe('1\u202f234,50');
    expect(formatNumber('0.125', '', 'en')).toBe('0.125');
    expect(formatNumber('', 'currency:USD', 'en')).toBe('');
  });

  it('agrees with a reference evaluation on random formulas', () => {
    fc.assert(
      fc.property(randomTree, (tree) => {
        const formula = asFormula(tree);
        const parsed = parseFormula(formula);
        if (!parsed.ok) return /nesting|at most/.test(parsed.problem.message);
        const got = evaluateTree(parsed.tree, (k) => VALUES[k]);
        const expected = reference(tree);
        if (got === undefined || expected === undefined) return got === expected;
        return Math.abs(got - expected) <= 1e-6 * Math.max(1, Math.abs(expected));
      }),
      { numRuns: 300 },
    );
    expect(storedNumber(-0)).toBe('0');
  });
});

// Random formulas as trees, written with as few parentheses as precedence allows (so parsing
// has to get precedence and order right), and their reference value computed from the tree.
type TTree =
  | { n: number }
  | { ref: string }
  | { neg: TTree }
  | { op: '+' | '-' | '*' | '/' | '×' | '÷' | '−'; l: TTree; r: TTree }
  | { max: [TTree, TTree] }
  | { paren: TTree };
const VALUES: Record<string, number> = { a: 3, b: 0, c: 0.5 };
const randomTree = fc.letrec<{ t: TTree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 999 }).map((n): TTree => ({ n })),
    fc.constantFrom('a', 'b', 'c').map((ref): TTree => ({ ref })),
    fc
      .tuple(tie('t'), fc.constantFrom('+', '-', '*', '/', '×', '÷', '−' as const), tie('t'))
      .map(([l, op, r]): TTree => ({ op, l, r })),
    tie('t').map((t): TTree => ({ neg: t })),
    tie('t').map((t): TTree => ({ paren: t })),
    fc.tuple(tie('t'), tie('t')).map((args): TTree => ({ max: args })),
  ),
})).t;
const additive = (op: string) => op === '+' || op === '-' || op === '−';
const precedence = (t: TTree) => ('op' in t ? (additive(t.op) ? 0 : 1) : 'neg' in t ? 2 : 3);
function asFormula(t: TTree): string {
  if ('n' in t) return String(t.n);
  if ('ref' in t) return t.ref;
  if ('paren' in t) return `(${asFormula(t.paren)})`;
  if ('max' in t) return `max(${asFormula(t.max[0])}, ${asFormula(t.max[1])})`;
  const wrap = (s: TTree, needs: boolean) => (needs ? `(${asFormula(s)})` : asFormula(s));
  if ('neg' in t) return `-${wrap(t.neg, precedence(t.neg) < 2)}`;
  const p = precedence(t);
  return `${wrap(t.l, precedence(t.l) < p)} ${t.op} ${wrap(t.r, precedence(t.r) <= p)}`;
}
/** The tree's value, or undefined for a division by zero or a result beyond 1e15. */
function reference(tree: TTree): number | undefined {
  const ev = (t: TTree): number => {
    if ('n' in t) return t.n;
    if ('ref' in t) return VALUES[t.ref]!;
    if ('paren' in t) return ev(t.paren);
    if ('neg' in t) return -ev(t.neg);
    if ('max' in t) return Math.max(ev(t.max[0]), ev(t.max[1]));
    const [l, r] = [ev(t.l), ev(t.r)];
    if (t.op === '+') return l + r;
    if (t.op === '-' || t.op === '−') return l - r;
    if (t.op === '*' || t.op === '×') return l * r;
    if (r === 0) throw new RangeError('division by zero');
    return l / r;
  };
  try {
    const n = ev(tree);
    return Number.isFinite(n) && Math.abs(n) <= 1e15 ? n : undefined;
  } catch {
    return undefined;
  }
}
