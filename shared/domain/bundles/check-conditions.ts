// The rules a bundle's (or a template's) field conditions must meet at create: every key they
// name is a field's, and no field depends, directly or through others, on itself.
import { conditionProblems, conditionsOf } from '../../text/field-conditions.js';
import type { TFieldError } from '../errors';
import type { TField } from './bundle';

const WIRE = { visibleWhen: 'visible_when', requiredWhen: 'required_when' } as const;
/** Enough to fix them one by one: a graph of many fields can hold very many cycles. */
const MAX_CYCLES_REPORTED = 10;

/**
 * Every broken rule of the documents' conditions, on the path of the condition (missing keys) or
 * of the field a cycle starts from, the cycle named key by key (`a → b → a`). `pathOf(i)` is the
 * path of document i (`documents[2]`); fields are named by their index in it.
 */
export function conditionErrors(
  docs: readonly { key: string; fields: readonly TField[] }[],
  pathOf: (docIndex: number) => string,
): TFieldError[] {
  if (!docs.some((d) => d.fields.some((f) => f.visibleWhen || f.requiredWhen))) return [];
  const flat = docs.flatMap((d, di) =>
    d.fields.map((f, fi) => ({ doc: d.key, key: f.key, kind: f.kind, di, fi, ...conditionsPart(f) })),
  );
  const fieldPath = (i: number) => `${pathOf(flat[i]!.di)}.fields[${flat[i]!.fi}]`;
  const { references, cycles } = conditionProblems(flat);
  const errors: TFieldError[] = references.map((r) => {
    const f = flat[r.index]!;
    const group = f[r.which]!;
    return {
      field: `${fieldPath(r.index)}.${WIRE[r.which]}.${group.all ? 'all' : 'any'}[${r.condition}].field`,
      message:
        r.problem === 'missing'
          ? `No field has the key "${r.key}".`
          : `Several documents have a field with the key "${r.key}", none of them this field's: give the one meant a key of its own.`,
    };
  });
  const manyDocs = new Set(cycles.flat().map((i) => flat[i]!.doc)).size > 1;
  const name = (i: number) => (manyDocs ? `${flat[i]!.doc}.${flat[i]!.key}` : flat[i]!.key);
  for (const cycle of cycles.slice(0, MAX_CYCLES_REPORTED)) {
    const first = flat[cycle[0]!]!;
    const nextKey = flat[cycle[1]!]!.key;
    const which = conditionsOf(first.visibleWhen).some((c) => c.field === nextKey)
      ? 'visibleWhen'
      : 'requiredWhen';
    errors.push({
      field: `${fieldPath(cycle[0]!)}.${WIRE[which]}`,
      message: `These conditions go round in a circle: ${cycle.map(name).join(' → ')}. A field's conditions may not depend on the field itself.`,
    });
  }
  return errors;
}

function conditionsPart(f: TField) {
  return {
    ...(f.visibleWhen ? { visibleWhen: f.visibleWhen } : {}),
    ...(f.requiredWhen ? { requiredWhen: f.requiredWhen } : {}),
  };
}
