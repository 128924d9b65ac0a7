import { calculatedValues } from '../../text/formula.js';
import type { TDocument, TPacket } from '../bundles/bundle';
import { currentValue } from './field-access';
import { isHiddenByCondition, type TFieldConditionStates } from './field-visibility';
import type { TSigningRecord } from './signing-record';

/**
 * The values of a document's calculated fields over the values in `records` (each field's value
 * that counts, see currentValue, else its initial value; an empty one counts as 0): key → the
 * number as stored ("1234.5"), "" where there is none (a division by zero). A field its
 * conditions hide (`states`, from the same records) counts as empty, so as 0: it holds nothing on
 * the final documents either. The same module computes them in the signing page
 * (shared/text/formula.js).
 */
export function calculatedOf(
  doc: Pick<TDocument, 'key' | 'fields'>,
  records: TSigningRecord[],
  packets: TPacket[],
  states: TFieldConditionStates,
): Map<string, string> {
  if (!doc.fields.some((f) => f.formula !== undefined)) return new Map();
  const byKey = new Map(doc.fields.map((f) => [f.key, f]));
  return calculatedValues(doc.fields, (key) => {
    const f = byKey.get(key);
    if (!f) return undefined;
    if (isHiddenByCondition(states, doc.key, f)) return '';
    return currentValue(doc.key, f, records, packets)?.value ?? f.initialValue ?? '';
  });
}
