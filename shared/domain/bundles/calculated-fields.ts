import { formulaCycle, parseFormula } from '../../text/formula.js';
import type { TFieldError } from '../errors';
import type { TField } from './bundle';

/**
 * A calculated field: its formula gives its value, so no signer fills it (no value saved, never
 * required, not editable in the page); the service computes it when a signer finishes and again
 * from the final values when it stamps the document.
 */
export const isCalculated = (f: Pick<TField, 'formula'>): boolean => f.formula !== undefined;

/** What a formula may name: a text field that holds a number, or another calculated field. */
export const isNumberField = (f: Pick<TField, 'kind' | 'vPattern' | 'formula'>): boolean =>
  isCalculated(f) || ((f.kind === 'inp' || f.kind === 'txt') && f.vPattern === 'numbers');

/**
 * The rules formulas must meet across one document's fields: each names fields of the same
 * document that hold numbers, and no formulas depend on each other in a circle. A formula that
 * does not parse is reported by checkField; `paths[i]` is where fields[i] came from.
 */
export function formulaErrors(fields: readonly TField[], paths: readonly string[]): TFieldError[] {
  const errors: TFieldError[] = [];
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const dependsOn = new Map<string, string[]>();
  fields.forEach((f, i) => {
    if (f.formula === undefined) return;
    const parsed = parseFormula(f.formula);
    if (!parsed.ok) return;
    dependsOn.set(f.key, parsed.references);
    for (const key of parsed.references) {
      const named = byKey.get(key);
      const at = `${paths[i]}.formula`;
      if (!named)
        errors.push({
          field: at,
          message: `The formula names "${key}", but this document has no field with that key.`,
        });
      else if (!isNumberField(named))
        errors.push({
          field: at,
          message: `The formula names "${key}", which is not a number field: give it "v_pattern": "numbers", or a formula.`,
        });
    }
  });
  const cycle = formulaCycle(dependsOn);
  if (cycle) {
    const first = fields.findIndex((f) => f.key === cycle[0]);
    errors.push({
      field: `${paths[first]}.formula`,
      message: `These formulas depend on each other in a circle: ${cycle.join(' → ')}.`,
    });
  }
  return errors;
}
