// The types of field-dates.js, a plain JavaScript module the signing page runs as it is.
export declare function numericDateOf(language: string): { order: 'DMY' | 'MDY' | 'YMD'; separator: string };
export declare function parseEnteredDate(text: string, language: string): string | undefined;
export declare function enteredDate(iso: string, language: string): string;
export declare const DATE_TOKENS: string[];
export declare function formatFieldDate(value: string, format: string, language?: string): string;
