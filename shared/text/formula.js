// @ts-check
// Calculated fields: a field's `formula` over the document's number fields, one module for the
// service (checked at create, computed at finish and when stamping) and for the signing page,
// which is served this very file and shows the total as the signer types. A formula is parsed by
// a small tokenizer and recursive-descent parser into a tree and evaluated over that tree: no text
// is ever run as code, and names are looked up in a fixed list, never on an object's prototype.
//
// Grammar (spaces anywhere between tokens):
//   expr    := term (("+" | "-" | "−") term)*
//   term    := unary (("*" | "/" | "×" | "÷") unary)*
//   unary   := ("-" | "−" | "+") unary | primary
//   primary := number | reference | call | "(" expr ")"
//   call    := ("sum" | "min" | "max") "(" expr ("," expr)* ")" | "round" "(" expr ("," digits)? ")"
//   number  := digits ("." digits)? | "." digits
//   reference := name | "{" key "}"     name: a letter or "_", then letters, digits, "_"
// A key with "-" (or one that starts with a digit) is written in braces: {unit-price}.

/** How large a formula may be: its length, its nesting, and how many fields it names. */
export const FORMULA_LIMITS = Object.freeze({ length: 500, depth: 20, references: 50 });

/** The largest result a calculated field holds (as the wire's numbers): beyond it, no result. */
const MAX_RESULT = 1e15;
/** Results are kept to a millionth, as the wire's numbers are. */
const RESULT_DECIMALS = 6;
const MAX_ROUND_DIGITS = 6;

const FUNCTIONS = new Set(['sum', 'min', 'max', 'round']);
const OPERATORS = new Map([
  ['+', '+'],
  ['-', '-'],
  ['\u2212', '-'],
  ['*', '*'],
  ['\u00d7', '*'],
  ['/', '/'],
  ['\u00f7', '/'],
]);

/**
 * @typedef {{ type: 'num', value: number }
 *   | { type: 'ref', key: string }
 *   | { type: 'neg', arg: TNode }
 *   | { type: 'bin', op: '+' | '-' | '*' | '/', left: TNode, right: TNode }
 *   | { type: 'call', name: 'sum' | 'min' | 'max' | 'round', args: TNode[] }} TNode
 * @typedef {{ kind: 'num' | 'name' | 'key' | 'op' | '(' | ')' | ',' | 'end', text: string, at: number }} TToken
 * @typedef {{ message: string, at: number }} TFormulaProblem
 */

class FormulaSyntaxError extends Error {
  /** @param {string} message @param {number} at */
  constructor(message, at) {
    super(message);
    this.at = at;
  }
}

/** @param {string} message @param {number} at 0-based @returns {never} */
const fail = (message, at) => {
  throw new FormulaSyntaxError(`${message} (at character ${at + 1})`, at);
};

/** @param {string} text @returns {TToken[]} */
function tokenize(text) {
  /** @type {TToken[]} */
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(\d+(\.\d+)?|\.\d+)/.exec(text.slice(i, i + 40));
    if (number) {
      if (number[0].length >= 40) fail('This number is too long', i);
      tokens.push({ kind: 'num', text: number[0], at: i });
      i += number[0].length;
      if (/[\d.]/.test(text[i] ?? '')) fail(`"${text[i]}" cannot follow a number here`, i);
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 40));
    if (name) {
      tokens.push({ kind: 'name', text: name[0], at: i });
      i += name[0].length;
      continue;
    }
    if (c === '{') {
      const key = /^\{([-\w]{1,32})\}/.exec(text.slice(i, i + 40));
      if (!key) fail('A field key in braces is letters, digits, "-" and "_", then "}"', i);
      tokens.push({ kind: 'key', text: key[1], at: i });
      i += key[0].length;
      continue;
    }
    const op = OPERATORS.get(c);
    if (op) {
      tokens.push({ kind: 'op', text: op, at: i });
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c, text: c, at: i });
      i++;
      continue;
    }
    fail(`"${c}" is not part of a formula: use numbers, field keys, + - * / ( ) and sum, min, max, round`, i);
  }
  tokens.push({ kind: 'end', text: '', at: text.length });
  return tokens;
}

/** @param {TToken} t */
const describe = (t) => (t.kind === 'end' ? 'The formula ends too early' : `Unexpected "${t.text}"`);

/** @param {string} text @returns {TNode} */
function parseTree(text) {
  const tokens = tokenize(text);
  let pos = 0;
  let references = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  /** @param {string} kind */
  const expect = (kind) => {
    const t = next();
    if (t.kind !== kind) fail(describe(t), t.at);
    return t;
  };

  /** @param {number} depth @returns {TNode} */
  const expr = (depth) => {
    let left = term(depth);
    while (peek().kind === 'op' && (peek().text === '+' || peek().text === '-')) {
      const op = /** @type {'+' | '-'} */ (next().text);
      left = { type: 'bin', op, left, right: term(depth) };
    }
    return left;
  };
  /** @param {number} depth @returns {TNode} */
  const term = (depth) => {
    let left = unary(depth);
    while (peek().kind === 'op' && (peek().text === '*' || peek().text === '/')) {
      const op = /** @type {'*' | '/'} */ (next().text);
      left = { type: 'bin', op, left, right: unary(depth) };
    }
    return left;
  };
  /** @param {number} depth @returns {TNode} */
  const unary = (depth) => {
    const t = peek();
    if (depth > FORMULA_LIMITS.depth) fail(`At most ${FORMULA_LIMITS.depth} levels of nesting`, t.at);
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      next();
      const arg = unary(depth + 1);
      return t.text === '-' ? { type: 'neg', arg } : arg;
    }
    return primary(depth);
  };
  /** @param {number} depth @returns {TNode} */
  const primary = (depth) => {
    const t = next();
    if (t.kind === 'num') return { type: 'num', value: Number(t.text) };
    if (t.kind === '(') {
      const inner = expr(depth + 1);
      expect(')');
      return inner;
    }
    if (t.kind === 'name' && peek().kind === '(') {
      if (!FUNCTIONS.has(t.text)) fail(`"${t.text}" is not a function: use sum, min, max or round`, t.at);
      const name = /** @type {'sum' | 'min' | 'max' | 'round'} */ (t.text);
      next();
      const args = [expr(depth + 1)];
      while (peek().kind === ',') {
        const comma = next();
        if (name === 'round') {
          const digits = next();
          const n = Number(digits.text);
          if (digits.kind !== 'num' || !Number.isInteger(n) || n > MAX_ROUND_DIGITS)
            fail(`round takes a whole number of digits from 0 to ${MAX_ROUND_DIGITS}`, digits.at);
          args.push({ type: 'num', value: n });
          if (peek().kind === ',') fail('round takes a number and, at most, its digits', comma.at);
          break;
        }
        args.push(expr(depth + 1));
      }
      expect(')');
      return { type: 'call', name, args };
    }
    if (t.kind === 'name' || t.kind === 'key') {
      if (++references > FORMULA_LIMITS.references)
        fail(`A formula names at most ${FORMULA_LIMITS.references} fields`, t.at);
      return { type: 'ref', key: t.text };
    }
    return fail(describe(t), t.at);
  };

  const tree = expr(0);
  const rest = peek();
  if (rest.kind !== 'end') fail(describe(rest), rest.at);
  return tree;
}

/**
 * A formula read into its tree, and the keys it names (each once, in order); or what is wrong
 * with it and where (`at`: 0-based character).
 * @param {string} text
 * @returns {{ ok: true, tree: TNode, references: string[] } | { ok: false, problem: TFormulaProblem }}
 */
export function parseFormula(text) {
  if (typeof text !== 'string' || text.trim() === '')
    return { ok: false, problem: { message: 'A formula may not be empty.', at: 0 } };
  if (text.length > FORMULA_LIMITS.length)
    return {
      ok: false,
      problem: {
        message: `A formula has at most ${FORMULA_LIMITS.length} characters.`,
        at: FORMULA_LIMITS.length,
      },
    };
  try {
    const tree = parseTree(text);
    return { ok: true, tree, references: referencesOf(tree) };
  } catch (err) {
    if (!(err instanceof FormulaSyntaxError)) throw err;
    return { ok: false, problem: { message: `${err.message}.`, at: err.at } };
  }
}

/** @param {TNode} tree @returns {string[]} */
function referencesOf(tree) {
  /** @type {Set<string>} */
  const keys = new Set();
  /** @param {TNode} n */
  const walk = (n) => {
    if (n.type === 'ref') keys.add(n.key);
    else if (n.type === 'neg') walk(n.arg);
    else if (n.type === 'bin') {
      walk(n.left);
      walk(n.right);
    } else if (n.type === 'call') n.args.forEach(walk);
  };
  walk(tree);
  return [...keys];
}

/**
 * A referenced field's value as a number: an empty field (or one that holds no number yet, as
 * the page sees a half-typed "1.") counts as 0.
 * @param {string | undefined} value
 */
export function numberOf(value) {
  const v = typeof value === 'string' ? value.trim() : '';
  return /^-?(\d+(\.\d+)?|\.\d+)$/.test(v) ? Number(v) : 0;
}

/**
 * `x` rounded half away from zero to `digits` decimals, safe from the binary error of 1.005.
 * @param {number} x @param {number} digits
 */
export function roundHalfAway(x, digits) {
  const f = 10 ** digits;
  const scaled = Math.abs(x) * f;
  return (Math.sign(x) * Math.round(Number(scaled.toPrecision(15)))) / f || 0;
}

/**
 * The tree's value, looking each key up with `lookUp`; undefined when there is none: a division
 * by zero, or a result beyond what a field holds.
 * @param {TNode} tree
 * @param {(key: string) => number | undefined} lookUp undefined: no result either
 * @returns {number | undefined}
 */
export function evaluateTree(tree, lookUp) {
  /** @param {TNode} n @returns {number} */
  const ev = (n) => {
    switch (n.type) {
      case 'num':
        return n.value;
      case 'ref': {
        const v = lookUp(n.key);
        return v === undefined ? Number.NaN : v;
      }
      case 'neg':
        return -ev(n.arg);
      case 'bin': {
        const a = ev(n.left);
        const b = ev(n.right);
        if (n.op === '+') return a + b;
        if (n.op === '-') return a - b;
        if (n.op === '*') return a * b;
        return b === 0 ? Number.NaN : a / b;
      }
      case 'call': {
        const args = n.args.map(ev);
        if (n.name === 'sum') return args.reduce((s, x) => s + x, 0);
        if (n.name === 'min') return Math.min(...args);
        if (n.name === 'max') return Math.max(...args);
        return roundHalfAway(args[0], args[1] ?? 0);
      }
      default:
        return Number.NaN;
    }
  };
  const result = ev(tree);
  if (!Number.isFinite(result) || Math.abs(result) > MAX_RESULT) return undefined;
  return roundHalfAway(result, RESULT_DECIMALS);
}

/**
 * A result as a calculated field stores it: plain digits, "." and at most six decimals, "" for
 * no result. The stored value is the number; its format applies when it is shown or stamped.
 * @param {number | undefined} n
 */
export function storedNumber(n) {
  if (n === undefined) return '';
  const fixed = roundHalfAway(n, RESULT_DECIMALS).toFixed(RESULT_DECIMALS);
  const trimmed = fixed.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/**
 * The values of a document's calculated fields, given how every other field reads (its value
 * as a string): a formula over another calculated field uses that field's result. A cycle (the
 * service refuses them at create) or a formula that does not parse gives an empty result.
 * @param {ReadonlyArray<{ key: string, formula?: string | null }>} fields
 * @param {(key: string) => string | undefined} rawValueOf a field's value; undefined for no such field
 * @returns {Map<string, string>} key → stored number ("" for none), for each calculated field
 */
export function calculatedValues(fields, rawValueOf) {
  /** @type {Map<string, string>} */
  const formulas = new Map();
  for (const f of fields) if (typeof f.formula === 'string') formulas.set(f.key, f.formula);
  /** @type {Map<string, number | undefined>} */
  const done = new Map();
  /** @type {Set<string>} */
  const visiting = new Set();
  /** @param {string} key @returns {number | undefined} */
  const resultOf = (key) => {
    if (done.has(key)) return done.get(key);
    if (visiting.has(key)) return undefined;
    visiting.add(key);
    const parsed = parseFormula(/** @type {string} */ (formulas.get(key)));
    const value = parsed.ok ? evaluateTree(parsed.tree, lookUp) : undefined;
    visiting.delete(key);
    done.set(key, value);
    return value;
  };
  /** @param {string} key */
  const lookUp = (key) => (formulas.has(key) ? resultOf(key) : numberOf(rawValueOf(key)));
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const key of formulas.keys()) out.set(key, storedNumber(resultOf(key)));
  return out;
}

/**
 * The keys of formulas that depend on each other in a circle, in the order they do (the first
 * again at the end), or undefined.
 * @param {ReadonlyMap<string, readonly string[]>} dependsOn formula field → the keys it names
 * @returns {string[] | undefined}
 */
export function formulaCycle(dependsOn) {
  /** @type {Map<string, 'open' | 'closed'>} */
  const state = new Map();
  /** @type {string[]} */
  const path = [];
  /** @param {string} key @returns {string[] | undefined} */
  const visit = (key) => {
    if (state.get(key) === 'closed' || !dependsOn.has(key)) return undefined;
    if (state.get(key) === 'open') return [...path.slice(path.indexOf(key)), key];
    state.set(key, 'open');
    path.push(key);
    for (const next of dependsOn.get(key) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(key, 'closed');
    return undefined;
  };
  for (const key of dependsOn.keys()) {
    const cycle = visit(key);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * A calculated field's `format`: "" (the number as it is, up to six decimals), `decimals:N`
 * (exactly N decimals, 0 to 6) or `currency:XXX` (an ISO 4217 code: its symbol and its usual
 * decimals). Undefined when the format is none of these.
 * @param {string} format
 * @returns {{ style: 'plain' } | { style: 'decimals', digits: number } | { style: 'currency', currency: string } | undefined}
 */
export function parseNumberFormat(format) {
  const f = (format ?? '').trim();
  if (f === '') return { style: 'plain' };
  const decimals = /^decimals:([0-6])$/.exec(f);
  if (decimals) return { style: 'decimals', digits: Number(decimals[1]) };
  const currency = /^currency:([A-Z]{3})$/.exec(f);
  if (currency) return { style: 'currency', currency: currency[1] };
  return undefined;
}

/**
 * A calculated field's value as a person reads it, in `language` (digits, separators and the
 * currency's symbol as that language writes them): on the signing page and on the document.
 * An empty value stays empty.
 * @param {string} value the stored number
 * @param {string} format the field's format (parseNumberFormat)
 * @param {string} language
 */
export function formatNumber(value, format, language) {
  if (typeof value !== 'string' || value.trim() === '') return '';
  const n = numberOf(value);
  const parsed = parseNumberFormat(format) ?? { style: 'plain' };
  /** @type {Intl.NumberFormatOptions} */
  const options =
    parsed.style === 'currency'
      ? { style: 'currency', currency: parsed.currency }
      : parsed.style === 'decimals'
        ? { minimumFractionDigits: parsed.digits, maximumFractionDigits: parsed.digits }
        : { maximumFractionDigits: RESULT_DECIMALS };
  try {
    return new Intl.NumberFormat(language, options).format(n);
  } catch {
    return new Intl.NumberFormat('en', options).format(n);
  }
}
