// The rules of conditional fields (shared/text/field-conditions.js), which the service and the
// signing page both run: how values compare, what a hidden field does to the fields that depend
// on it, and cycle detection, checked against a plain reachability search on random graphs.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowRequest } from '#shared/domain/bulk/row-request';
import type { TField } from '#shared/domain/bundles/bundle';
import { conditionErrors } from '#shared/domain/bundles/check-conditions';
import { isFilled } from '#shared/domain/signing/field-access';
// @ts-expect-error the editor's helpers are plain JavaScript served to the browser as they are
import * as editor from '../../functions/public-pages/public/prepare-condition-rules.js';
import {
  conditionProblems,
  fieldStates,
  findCycles,
  conditionHolds as holdsWith,
  type TConditionalField,
} from '../../shared/text/field-conditions.js';

const field = (key: string, kind: string, more: Partial<TConditionalField> = {}): TConditionalField => ({
  doc: 'd',
  key,
  kind,
  ...more,
});

const filled = isFilled as (f: { kind: string }, value: string) => boolean;
const conditionHolds = (c: Parameters<typeof holdsWith>[0], kind: string, value: string) =>
  holdsWith(c, kind, value, filled);

describe('a condition', () => {
  it('reads a check box as "true" when ticked and "false" otherwise', () => {
    expect(conditionHolds({ field: 'c', equals: 'true' }, 'chk', 'true')).toBe(true);
    expect(conditionHolds({ field: 'c', equals: 'TRUE' }, 'chk', 'true')).toBe(true);
    expect(conditionHolds({ field: 'c', equals: 'false' }, 'chk', '')).toBe(true);
    expect(conditionHolds({ field: 'c', equals: 'true' }, 'chk', 'false')).toBe(false);
    expect(conditionHolds({ field: 'c', not_empty: true }, 'chk', 'false')).toBe(false);
    expect(conditionHolds({ field: 'c', not_empty: true }, 'chk', 'true')).toBe(true);
  });

  it('reads a checkbox group as its chosen options, text trimmed and exact', () => {
    expect(conditionHolds({ field: 'g', equals: 'B' }, 'cbg', 'A|B')).toBe(true);
    expect(conditionHolds({ field: 'g', one_of: ['C', 'A'] }, 'cbg', 'A|B')).toBe(true);
    expect(conditionHolds({ field: 'g', one_of: ['C'] }, 'cbg', 'A|B')).toBe(false);
    expect(conditionHolds({ field: 't', equals: 'yes' }, 'inp', '  yes ')).toBe(true);
    expect(conditionHolds({ field: 't', equals: 'yes' }, 'inp', 'Yes')).toBe(false);
    expect(conditionHolds({ field: 't', not_empty: true }, 'inp', ' \u200B ')).toBe(false);
    expect(conditionHolds({ field: 's', not_empty: true }, 'sig', 'typed:')).toBe(false);
  });
});

describe('the states of fields', () => {
  it('hides, requires, and makes a hidden field read as empty down the chain', () => {
    const fields = [
      field('married', 'chk'),
      field('spouse', 'inp', { visibleWhen: { all: [{ field: 'married', equals: 'true' }] } }),
      field('spouse_sig', 'sig', { visibleWhen: { any: [{ field: 'spouse', not_empty: true }] } }),
      field('why', 'txt', {
        required: false,
        requiredWhen: { any: [{ field: 'plan', one_of: ['gold', 'silver'] }] },
      }),
      field('plan', 'sel'),
    ];
    const values: Record<string, string> = { married: 'false', spouse: 'Ann', plan: 'gold' };
    const states = () => fieldStates(fields, (i) => values[fields[i]!.key], filled);
    // Not married: the spouse's name is hidden, so its value reads as empty: the signature hides too.
    expect(states().map((s) => s.visible)).toEqual([true, false, false, true, true]);
    expect(states()[3]).toEqual({ visible: true, required: true });
    values.married = 'true';
    values.plan = 'bronze';
    expect(states().map((s) => s.visible)).toEqual([true, true, true, true, true]);
    expect(states()[3]!.required).toBe(false);
  });

  it('reports keys no field has, keys several other documents have, and cycles', () => {
    const docs = [
      {
        key: 'a',
        fields: [
          { key: 'x', visibleWhen: { all: [{ field: 'y', not_empty: true }] } },
          { key: 'y', requiredWhen: { any: [{ field: 'x', equals: '1' }] } },
          {
            key: 'z',
            visibleWhen: {
              all: [
                { field: 'nope', equals: '1' },
                { field: 'dup', equals: '1' },
              ],
            },
          },
        ],
      },
      { key: 'b', fields: [{ key: 'dup' }] },
      { key: 'c', fields: [{ key: 'dup' }] },
    ].map((d) => ({ key: d.key, fields: d.fields.map((f) => ({ kind: 'inp', ...f }) as unknown as TField) }));
    expect(conditionErrors(docs, (i) => `documents[${i}]`)).toEqual([
      { field: 'documents[0].fields[2].visible_when.all[0].field', message: 'No field has the key "nope".' },
      {
        field: 'documents[0].fields[2].visible_when.all[1].field',
        message: expect.stringContaining('Several documents have a field with the key "dup"'),
      },
      {
        field: 'documents[0].fields[0].visible_when',
        message: expect.stringContaining('x → y → x'),
      },
    ]);
  });

  it('decides a chain of thousands of fields without overflowing the stack', () => {
    const n = 20_000;
    const fields = Array.from({ length: n }, (_, i) =>
      field(
        `f${i}`,
        'inp',
        i + 1 < n ? { visibleWhen: { all: [{ field: `f${i + 1}`, not_empty: true }] } } : {},
      ),
    );
    expect(conditionProblems(fields).cycles).toEqual([]);
    const states = fieldStates(fields, () => 'v', filled);
    expect(states.every((s) => s.visible)).toBe(true);
  });
});

/** Whether `to` can be reached from `from` in one or more steps. */
function reaches(edges: number[][], from: number, to: number): boolean {
  const seen = new Set<number>();
  const todo = [...edges[from]!];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    todo.push(...edges[n]!);
  }
  return false;
}

describe('cycle detection on random graphs', () => {
  const graph = fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), {
      minLength: n,
      maxLength: n,
    }),
  );

  it('finds a cycle exactly when a node reaches itself, and every cycle it names is one', () => {
    fc.assert(
      fc.property(graph, (edges) => {
        const cycles = findCycles(edges);
        const cyclic = edges.some((_, i) => reaches(edges, i, i));
        expect(cycles.length > 0).toBe(cyclic);
        for (const c of cycles) {
          expect(c[0]).toBe(c.at(-1));
          for (let k = 0; k + 1 < c.length; k++) expect(edges[c[k]!]).toContain(c[k + 1]);
        }
        // No knot of fields that depend on each other goes unreported: a node on a cycle is
        // reported, or another node of its knot (reaching it and reached from it) is.
        const onCycle = new Set(cycles.flat());
        edges.forEach((_, i) => {
          if (reaches(edges, i, i) && !onCycle.has(i))
            expect([...onCycle].some((j) => reaches(edges, i, j) && reaches(edges, j, i))).toBe(true);
        });
      }),
    );
  });

  it('lets a graph without cycles decide every field as its conditions say', () => {
    fc.assert(
      fc.property(graph, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (edges, given) => {
        // Keep the edges that go to a higher index: no cycle.
        const acyclic = edges.map((out, i) => out.filter((j) => j > i));
        const fields = acyclic.map((out, i) =>
          field(
            `f${i}`,
            'inp',
            out.length
              ? { visibleWhen: { all: out.map((j) => ({ field: `f${j}`, not_empty: true as const })) } }
              : {},
          ),
        );
        expect(conditionProblems(fields).cycles).toEqual([]);
        const states = fieldStates(fields, (i) => (given[i] ? 'v' : ''), filled);
        // From the last field back: shown when every field it names is shown and filled.
        for (let i = fields.length - 1; i >= 0; i--) {
          const expected = acyclic[i]!.every((j) => states[j]!.visible && given[j]);
          expect(states[i]!.visible).toBe(expected);
        }
      }),
    );
  });
});

describe("the preparation editor's one condition", () => {
  it('reads and writes one condition, and leaves richer ones the API set alone', () => {
    const f: Record<string, unknown> = { key: 'names' };
    expect(editor.simpleCondition(f)).toBeNull();
    editor.setCondition(f, { field: 'pets', test: 'equals', value: 'true', requiredThen: true });
    expect(f).toMatchObject({
      visible_when: { all: [{ field: 'pets', equals: 'true' }] },
      required_when: { all: [{ field: 'pets', equals: 'true' }] },
    });
    expect(editor.simpleCondition(f)).toEqual({
      field: 'pets',
      test: 'equals',
      value: 'true',
      requiredThen: true,
    });
    editor.setCondition(f, { field: '', test: 'filled', value: '' });
    expect(f).toEqual({ key: 'names' });
    const rich = {
      visible_when: {
        any: [
          { field: 'a', equals: '1' },
          { field: 'b', one_of: ['x'] },
        ],
      },
    };
    expect(editor.simpleCondition(rich)).toBeUndefined();
  });
});

describe('a bulk send row', () => {
  it("keeps the fields' conditions while it sets their values", () => {
    const shown = { all: [{ field: 'pets', equals: 'true' }] };
    const base = {
      documents: [
        {
          key: 'd',
          fields: [
            { key: 'pets', kind: 'chk' },
            { key: 'names', visible_when: shown },
          ],
        },
      ],
    };
    const { body } = rowRequest(base, { fields: { pets: 'true', names: 'Rex' } }, 0);
    expect((body.documents as { fields: unknown[] }[])[0]!.fields[1]).toEqual({
      key: 'names',
      visible_when: shown,
      initial_value: 'Rex',
    });
  });
});
