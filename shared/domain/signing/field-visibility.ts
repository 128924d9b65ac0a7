// Which fields their conditions hide and which they make required, from the values that count
// (the rules: shared/text/field-conditions.js, which the signing page runs too).
import { fieldStates } from '../../text/field-conditions.js';
import type { TDocument, TField, TPacket } from '../bundles/bundle';
import { currentValue, isFilled } from './field-access';
import { type TSigningRecord, valueKey } from './signing-record';

export interface TFieldConditionStates {
  /** Hidden by its `visible_when`: not filled by the signer, its value dropped, never stamped. */
  hidden(docKey: string, field: Pick<TField, 'key'>): boolean;
  /** `required` as its conditions decide it: false when hidden, `required_when` when it has one. */
  required(docKey: string, field: Pick<TField, 'key' | 'required'>): boolean;
}

const NO_CONDITIONS: TFieldConditionStates = {
  hidden: () => false,
  required: (_doc, f) => f.required,
};

const hasConditions = (docs: readonly Pick<TDocument, 'fields'>[]) =>
  docs.some((d) => d.fields.some((f) => f.visibleWhen || f.requiredWhen));

/**
 * The fields' states given the values in `records` (as currentValue reads them: a finished
 * signer's value wins; else the initial value). Which records to pass is the caller's: a signer
 * sees their own and finished signers' values, the final documents everyone's.
 */
export function conditionStates(
  docs: readonly TDocument[],
  records: TSigningRecord[],
  packets: TPacket[],
): TFieldConditionStates {
  if (!hasConditions(docs)) return NO_CONDITIONS;
  const flat = docs.flatMap((d) =>
    d.fields.map((f) => ({
      doc: d.key,
      key: f.key,
      kind: f.kind,
      required: f.required,
      field: f,
      ...(f.visibleWhen ? { visibleWhen: f.visibleWhen } : {}),
      ...(f.requiredWhen ? { requiredWhen: f.requiredWhen } : {}),
    })),
  );
  const states = fieldStates(
    flat,
    (i) => {
      const { doc, field } = flat[i]!;
      return currentValue(doc, field, records, packets)?.value ?? field.initialValue ?? '';
    },
    isFilled as (f: { kind: string }, value: string) => boolean,
  );
  const byKey = new Map(flat.map((f, i) => [valueKey(f.doc, f.key), states[i]!]));
  return {
    hidden: (docKey, f) => byKey.get(valueKey(docKey, f.key))?.visible === false,
    required: (docKey, f) => byKey.get(valueKey(docKey, f.key))?.required ?? f.required,
  };
}

/** A field the signer does not fill because its conditions hide it (see TFieldConditionStates). */
export function isHiddenByCondition(
  states: TFieldConditionStates,
  docKey: string,
  field: Pick<TField, 'key'>,
): boolean {
  return states.hidden(docKey, field);
}

/** A copy of the record's values without those of fields their conditions hide. */
export function withoutHidden<T>(
  values: Record<string, T>,
  docs: readonly TDocument[],
  states: TFieldConditionStates,
): Record<string, T> {
  const out = { ...values };
  if (states === NO_CONDITIONS) return out;
  for (const d of docs)
    for (const f of d.fields) if (isHiddenByCondition(states, d.key, f)) delete out[valueKey(d.key, f.key)];
  return out;
}
