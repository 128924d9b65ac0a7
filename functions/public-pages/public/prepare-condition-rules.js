// @ts-check
// What the preparation editor edits of a field's conditions (prepare-conditions.js): one
// condition on another field, shown when it holds, and required then if asked. Conditions the
// API set that say more (several conditions, `one_of`) are kept as they are, never rewritten.

/**
 * The one condition the editor shows: `null` when the field has none, `undefined` when it has
 * more than the editor edits; else `{ field, test: 'filled' | 'equals', value, requiredThen }`.
 */
export function simpleCondition(f) {
  const group = f.visible_when;
  if (!group) return f.required_when ? undefined : null;
  const list = group.all ?? group.any ?? [];
  if (list.length !== 1) return undefined;
  const c = list[0];
  let shown;
  if (c.not_empty === true) shown = { field: c.field, test: 'filled', value: '' };
  else if (c.equals !== undefined) shown = { field: c.field, test: 'equals', value: String(c.equals) };
  else return undefined;
  if (f.required_when && JSON.stringify(f.required_when) !== JSON.stringify(group)) return undefined;
  return { ...shown, requiredThen: Boolean(f.required_when) };
}

/** Sets the field's conditions to the one the editor shows; no other field named: none. */
export function setCondition(f, c) {
  delete f.visible_when;
  delete f.required_when;
  if (!c?.field) return;
  const condition =
    c.test === 'filled' ? { field: c.field, not_empty: true } : { field: c.field, equals: c.value ?? '' };
  f.visible_when = { all: [condition] };
  if (c.requiredThen) f.required_when = { all: [{ ...condition }] };
}
