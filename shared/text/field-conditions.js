// @ts-check
// Conditional fields: whether a field is shown, and whether it is required, from other fields'
// values (`visible_when`, `required_when`). One set of rules for the service (its checks at create,
// at every save and at finish, and what it stamps) and for the signing page, which is served this
// very file (functions/public-pages/public/text), so the two cannot drift apart.
//
// How values compare (docs/architecture/signing.md, "Conditional fields"):
// - a check box (`chk`, `apr`) reads "true" when ticked and "false" otherwise (never touched
//   included); `not_empty` holds only when it is ticked;
// - a checkbox group (`cbg`) reads as the set of its chosen options: `equals` holds when the
//   option is among them, `one_of` when any chosen one is in the list;
// - anything else reads as its text with the spaces around it trimmed, compared exactly;
// - a field that is hidden reads as empty (an unticked box): what depends on it follows;
// - `not_empty` holds when the field is filled as finishing counts it: the caller passes that
//   rule in (`filled`), the service's field-access.ts or the page's rules.js, since the modules
//   here import nothing.

/** The conditions of a group, whichever way they combine. */
export function conditionsOf(group) {
  return (group && (group.all ?? group.any)) || [];
}

/**
 * Which field a condition names: the field of that key in the same document, else the only one of
 * that key in the bundle's other documents. Field keys are unique within a document only.
 */
function resolver(fields) {
  /** @type {Map<string, number[]>} */
  const byKey = new Map();
  fields.forEach((f, i) => {
    const list = byKey.get(f.key) ?? [];
    list.push(i);
    byKey.set(f.key, list);
  });
  return (/** @type {number} */ from, /** @type {string} */ key) => {
    const found = byKey.get(key) ?? [];
    const same = found.find((i) => fields[i].doc === fields[from].doc);
    if (same !== undefined) return same;
    if (found.length === 0) return 'missing';
    return found.length === 1 ? found[0] : 'ambiguous';
  };
}

/**
 * What is wrong with the fields' conditions: references to keys no field has (or that several
 * other documents have), and cycles (a field whose conditions depend, directly or through other
 * fields, on itself). Each cycle is given as the field indexes along it, its first repeated last.
 */
export function conditionProblems(fields) {
  const resolve = resolver(fields);
  const references = [];
  /** @type {number[][]} */
  const edges = fields.map(() => []);
  fields.forEach((f, i) => {
    for (const which of /** @type {const} */ (['visibleWhen', 'requiredWhen'])) {
      conditionsOf(f[which]).forEach((c, n) => {
        const to = resolve(i, c.field);
        if (typeof to === 'number') edges[i].push(to);
        else references.push({ index: i, which, condition: n, key: c.field, problem: to });
      });
    }
  });
  return { references, cycles: findCycles(edges) };
}

/**
 * The cycles of a directed graph (each node's successors by index), one for each edge that closes
 * one in a depth-first walk: no cycle is left unreported, though one may be reported in part of
 * another. Iterative, so a long chain cannot overflow the stack.
 */
export function findCycles(edges) {
  const state = new Uint8Array(edges.length); // 0 unseen, 1 on the path, 2 done
  /** @type {number[][]} */
  const cycles = [];
  for (let start = 0; start < edges.length; start++) {
    if (state[start] !== 0) continue;
    /** @type {[number, number][]} */
    const stack = [[start, 0]];
    /** @type {number[]} */
    const path = [start];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [node, next] = top;
      if (next >= edges[node].length) {
        state[node] = 2;
        stack.pop();
        path.pop();
        continue;
      }
      top[1] = next + 1;
      const to = edges[node][next];
      if (state[to] === 1) cycles.push([...path.slice(path.indexOf(to)), to]);
      else if (state[to] === 0) {
        state[to] = 1;
        stack.push([to, 0]);
        path.push(to);
      }
    }
  }
  return cycles;
}

/** The values a field's value stands for in a comparison. */
function readingsOf(kind, value) {
  if (kind === 'chk' || kind === 'apr') return [String(value).toLowerCase() === 'true' ? 'true' : 'false'];
  if (kind === 'cbg')
    return value
      .split('|')
      .map((o) => o.trim())
      .filter((o) => o !== '');
  return [value.trim()];
}

/** Whether one condition holds for a field of `kind` holding `value`; `filled` decides not_empty. */
export function conditionHolds(condition, kind, value, filled) {
  if (condition.not_empty) return filled({ kind }, value);
  const readings = readingsOf(kind, value);
  const norm = (v) => (kind === 'chk' || kind === 'apr' ? String(v).trim().toLowerCase() : String(v).trim());
  if (condition.equals !== undefined) return readings.includes(norm(condition.equals));
  if (condition.one_of !== undefined) return condition.one_of.some((v) => readings.includes(norm(v)));
  return false;
}

/**
 * Whether each field is shown and whether it is required, given the value each one holds
 * (`valueAt(index)`; `filled` as for conditionHolds): a field without `visible_when` is shown; with it, when its group holds. A
 * shown field is required when its `required_when` holds, else (without one) as `required` says.
 * A hidden field is never required, and reads as empty in the conditions of others. A condition
 * naming no field does not hold; a cycle (refused at create) does not loop: it reads as shown.
 */
export function fieldStates(fields, valueAt, filled) {
  const resolve = resolver(fields);
  // Each field's visibility needs those of the fields its `visible_when` names first: walk them
  // depth first, deciding a field once all it depends on is decided (no recursion: a chain of
  // thousands of fields must not overflow the stack).
  const deps = fields.map((f, i) =>
    conditionsOf(f.visibleWhen)
      .map((c) => resolve(i, c.field))
      .filter((to) => typeof to === 'number'),
  );
  /** @type {(boolean | undefined)[]} */
  const visible = fields.map(() => undefined);
  const readingOf = (to) => (visible[to] !== false ? (valueAt(to) ?? '') : '');
  const groupHolds = (from, group) => {
    const test = (c) => {
      const to = resolve(from, c.field);
      return typeof to === 'number' && conditionHolds(c, fields[to].kind, readingOf(to), filled);
    };
    return group.all ? group.all.every(test) : (group.any ?? []).some(test);
  };
  const entered = new Uint8Array(fields.length);
  for (let start = 0; start < fields.length; start++) {
    if (entered[start]) continue;
    entered[start] = 1;
    /** @type {[number, number][]} */
    const stack = [[start, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [i, next] = top;
      if (next < deps[i].length) {
        top[1] = next + 1;
        const to = deps[i][next];
        if (!entered[to]) {
          entered[to] = 1;
          stack.push([to, 0]);
        }
        continue;
      }
      stack.pop();
      const group = fields[i].visibleWhen;
      visible[i] = group ? groupHolds(i, group) : true;
    }
  }
  return fields.map((f, i) => {
    const shown = visible[i] !== false;
    const required = shown && (f.requiredWhen ? groupHolds(i, f.requiredWhen) : Boolean(f.required));
    return { visible: shown, required };
  });
}
