// The part of a key policy KMS's stand-in can judge: Deny statements conditioned on the
// encryption context alone (the documents keys' `OnlyWithAnAccountContext` and
// `OnlyThisAccountsDocuments`, shared/adapters/kms/documents-keys.ts). The stand-in checks no
// credentials, so it cannot tell who calls or through which service (`kms:ViaService`): a
// statement with any other condition is left out, as if the call met it.

interface TStatement {
  Sid?: string;
  Effect?: string;
  Action?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

const CONTEXT_KEY = /^kms:EncryptionContext:(.+)$/;

/** `kms:GenerateDataKey*` and the like, matched as IAM matches actions (case-insensitive). */
const matches = (pattern: string, action: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action);

/** One condition operator on the context: true when it holds; undefined when not judged here. */
function holds(
  operator: string,
  values: Record<string, string | string[]>,
  context: Record<string, string>,
): boolean | undefined {
  let all = true;
  for (const [conditionKey, raw] of Object.entries(values)) {
    const name = CONTEXT_KEY.exec(conditionKey)?.[1];
    if (!name) return undefined;
    const wanted = Array.isArray(raw) ? raw : [raw];
    const value = context[name];
    if (operator === 'Null') all &&= (value === undefined) === (wanted[0] === 'true');
    else if (operator === 'StringEquals') all &&= value !== undefined && wanted.includes(value);
    // A key absent from the request makes StringNotEquals hold, as IAM evaluates it.
    else if (operator === 'StringNotEquals') all &&= value === undefined || !wanted.includes(value);
    else return undefined;
  }
  return all;
}

/** The Sid of the policy's statement that denies `action` (e.g. kms:Decrypt) with this context. */
export function deniedBy(
  policy: string | undefined,
  action: string,
  context: Record<string, string> | undefined,
): string | undefined {
  if (!policy) return undefined;
  const statements = (JSON.parse(policy) as { Statement?: TStatement[] }).Statement ?? [];
  for (const st of statements) {
    if (st.Effect !== 'Deny' || !st.Condition) continue;
    const actions = Array.isArray(st.Action) ? st.Action : [st.Action ?? ''];
    if (!actions.some((a) => matches(a, action))) continue;
    const judged = Object.entries(st.Condition).map(([op, values]) => holds(op, values, context ?? {}));
    if (judged.every((h) => h === true)) return st.Sid ?? 'a Deny statement';
  }
  return undefined;
}
