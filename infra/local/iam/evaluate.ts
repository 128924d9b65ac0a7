// IAM's own evaluation of an identity policy, for the local runtime's permission check
// (iam-check.ts): an explicit Deny wins, otherwise some Allow statement must match the action,
// the resource and every condition. Matching is IAM's: `*` and `?` wildcards, actions without
// regard to case, resources with it, NotAction and NotResource as complements.

export type TStringOrList = string | string[];

export interface TPolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action?: TStringOrList;
  NotAction?: TStringOrList;
  Resource?: TStringOrList;
  NotResource?: TStringOrList;
  Condition?: Record<string, Record<string, TStringOrList | boolean>>;
}

/** One request as IAM authorizes it: an action on a resource, with the request's context keys. */
export interface TAuthzRequest {
  action: string;
  resource: string;
  /** Condition keys: one value, or a set (dynamodb:LeadingKeys, kms:ResourceAliases). */
  context?: Record<string, string | string[] | undefined>;
}

const list = (v: TStringOrList | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Each pattern's expression, made once: the patterns are the policies' (and their conditions'),
 * a fixed set, and every AWS call a function makes is checked against them.
 */
const compiled = new Map<string, RegExp>();

/** IAM's wildcard match: `*` any run of characters, `?` exactly one. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    const source = pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
    compiled.set(key, re);
  }
  return re.test(value);
}

function matchesAction(s: TPolicyStatement, action: string): boolean {
  if (s.NotAction !== undefined) return !list(s.NotAction).some((p) => wildcardMatch(p, action, true));
  return list(s.Action).some((p) => wildcardMatch(p, action, true));
}

function matchesResource(s: TPolicyStatement, resource: string): boolean {
  if (s.NotResource !== undefined) return !list(s.NotResource).some((p) => wildcardMatch(p, resource));
  return list(s.Resource).some((p) => wildcardMatch(p, resource));
}

type TOperator = (values: string[], actual: string | undefined) => boolean;

const anyOf =
  (test: (expected: string, actual: string) => boolean): TOperator =>
  (values, actual) =>
    actual !== undefined && values.some((v) => test(v, actual));
// A negated operator matches when the key is absent, as IAM's does.
const noneOf =
  (test: (expected: string, actual: string) => boolean): TOperator =>
  (values, actual) =>
    actual === undefined || !values.some((v) => test(v, actual));

const OPERATORS: Record<string, TOperator> = {
  StringEquals: anyOf((e, a) => e === a),
  StringNotEquals: noneOf((e, a) => e === a),
  StringEqualsIgnoreCase: anyOf((e, a) => e.toLowerCase() === a.toLowerCase()),
  StringLike: anyOf((e, a) => wildcardMatch(e, a)),
  StringNotLike: noneOf((e, a) => wildcardMatch(e, a)),
  ArnEquals: anyOf((e, a) => e === a),
  ArnLike: anyOf((e, a) => wildcardMatch(e, a)),
  Bool: anyOf((e, a) => e.toLowerCase() === a.toLowerCase()),
  // Null: "true" asks that the key be absent, "false" that it be present.
  Null: (values, actual) => values.some((v) => (v === 'true') === (actual === undefined)),
};

type TContextValue = string | string[] | undefined;

/**
 * An operator on a key's value; with a set operator's prefix, on each of a multivalued key's:
 * ForAllValues holds when every value (or none) passes, ForAnyValue when at least one does.
 */
function conditionTest(operator: string): ((values: string[], actual: TContextValue) => boolean) | undefined {
  const [qualifier, base] = operator.includes(':') ? operator.split(':', 2) : [undefined, operator];
  const test = OPERATORS[base!];
  if (!test) return undefined;
  const asSet = (actual: TContextValue) =>
    actual === undefined ? [] : Array.isArray(actual) ? actual : [actual];
  if (qualifier === 'ForAllValues') return (values, actual) => asSet(actual).every((a) => test(values, a));
  if (qualifier === 'ForAnyValue') return (values, actual) => asSet(actual).some((a) => test(values, a));
  if (qualifier !== undefined) return undefined;
  return (values, actual) => test(values, Array.isArray(actual) ? actual[0] : actual);
}

function matchesConditions(s: TPolicyStatement, context: Record<string, TContextValue>): boolean {
  for (const [operator, keys] of Object.entries(s.Condition ?? {})) {
    const test = conditionTest(operator);
    // A policy using an operator this check does not know is a gap here, not a denial to guess.
    if (!test) throw new Error(`IAM condition operator ${operator} is not supported by the local check`);
    for (const [key, expected] of Object.entries(keys)) {
      const values = list(typeof expected === 'boolean' ? String(expected) : expected).map(String);
      // Condition keys are matched without regard to case, as IAM does.
      const actualKey = Object.keys(context).find((k) => k.toLowerCase() === key.toLowerCase());
      if (!test(values, actualKey === undefined ? undefined : context[actualKey])) return false;
    }
  }
  return true;
}

function matches(s: TPolicyStatement, request: TAuthzRequest): boolean {
  return (
    matchesAction(s, request.action) &&
    matchesResource(s, request.resource) &&
    matchesConditions(s, request.context ?? {})
  );
}

/** Whether the statements allow the request: some Allow matches and no Deny does. */
export function isAllowed(statements: readonly TPolicyStatement[], request: TAuthzRequest): boolean {
  if (statements.some((s) => s.Effect === 'Deny' && matches(s, request))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s, request));
}
