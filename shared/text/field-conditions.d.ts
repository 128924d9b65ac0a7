// The types of field-conditions.js, a plain JavaScript module the signing page runs as it is.
export type TCondition =
  | { field: string; equals: string; not_empty?: undefined; one_of?: undefined }
  | { field: string; not_empty: true; equals?: undefined; one_of?: undefined }
  | { field: string; one_of: string[]; equals?: undefined; not_empty?: undefined };
export type TConditionGroup = { all: TCondition[]; any?: undefined } | { any: TCondition[]; all?: undefined };

/** A field as the rules read it: `doc` names its document, `key` is unique within it. */
export interface TConditionalField {
  doc: string;
  key: string;
  kind: string;
  required?: boolean;
  visibleWhen?: TConditionGroup;
  requiredWhen?: TConditionGroup;
}

export interface TReferenceProblem {
  /** The index of the field whose condition it is. */
  index: number;
  which: 'visibleWhen' | 'requiredWhen';
  /** The index of the condition in its group. */
  condition: number;
  key: string;
  problem: 'missing' | 'ambiguous';
}

export declare function conditionsOf(group: TConditionGroup | undefined): TCondition[];
export declare function conditionProblems(fields: readonly TConditionalField[]): {
  references: TReferenceProblem[];
  cycles: number[][];
};
export declare function findCycles(edges: readonly (readonly number[])[]): number[][];
/** Whether a field of this kind holding this value is filled (finishing's rule). */
export type TFilled = (field: { kind: string }, value: string) => boolean;
export declare function conditionHolds(
  condition: TCondition,
  kind: string,
  value: string,
  filled: TFilled,
): boolean;
export declare function fieldStates(
  fields: readonly TConditionalField[],
  valueAt: (index: number) => string | undefined,
  filled: TFilled,
): { visible: boolean; required: boolean }[];
