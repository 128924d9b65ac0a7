// The types of formula.js, a plain JavaScript module the signing page runs as it is.
export type TFormulaNode =
  | { type: 'num'; value: number }
  | { type: 'ref'; key: string }
  | { type: 'neg'; arg: TFormulaNode }
  | { type: 'bin'; op: '+' | '-' | '*' | '/'; left: TFormulaNode; right: TFormulaNode }
  | { type: 'call'; name: 'sum' | 'min' | 'max' | 'round'; args: TFormulaNode[] };
export interface TFormulaProblem {
  message: string;
  /** 0-based character. */
  at: number;
}
export type TNumberFormat =
  | { style: 'plain' }
  | { style: 'decimals'; digits: number }
  | { style: 'currency'; currency: string };
export declare const FORMULA_LIMITS: Readonly<{ length: number; depth: number; references: number }>;
export declare function parseFormula(
  text: string,
): { ok: true; tree: TFormulaNode; references: string[] } | { ok: false; problem: TFormulaProblem };
export declare function numberOf(value: string | undefined): number;
export declare function roundHalfAway(x: number, digits: number): number;
export declare function evaluateTree(
  tree: TFormulaNode,
  lookUp: (key: string) => number | undefined,
): number | undefined;
export declare function storedNumber(n: number | undefined): string;
export declare function calculatedValues(
  fields: ReadonlyArray<{ key: string; formula?: string | null }>,
  rawValueOf: (key: string) => string | undefined,
): Map<string, string>;
export declare function formulaCycle(dependsOn: ReadonlyMap<string, readonly string[]>): string[] | undefined;
export declare function parseNumberFormat(format: string): TNumberFormat | undefined;
export declare function formatNumber(value: string, format: string, language: string): string;
