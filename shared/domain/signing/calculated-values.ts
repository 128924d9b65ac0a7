import { calculatedValues } from '../../text/formula.js';
import type { TDocument, TPacket } from '../bundles/bundle';
import { currentValue } from './field-access';
import type { TSigningRecord } from './signing-record';

/**
 * The values of a document's calculated fields over the values in `records` (each field's value
 * that counts, see currentValue, else its initial value; an empty one counts as 0): key → the
 * number as stored ("1234.5"), "" where there is none (a division by zero). The same module
 * computes them in the signing page (shared/text/formula.js).
 */
export function calculatedOf(
  doc: Pick<TDocument, 'key' | 'fields'>,
  records: TSigningRecord[],
  packets: TPacket[],
): Map<string, string> {
  if (!doc.fields.some((f) => f.formula !== undefined)) return new Map();
  const byKey = new Map(doc.fields.map((f) => [f.key, f]));
  return calculatedValues(doc.fields, (key) => {
    const f = byKey.get(key);
    if (!f) return undefined;
    return currentValue(doc.key, f, records, packets)?.value ?? f.initialValue ?? '';
  });
}
