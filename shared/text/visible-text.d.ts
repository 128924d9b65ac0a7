// The types of visible-text.js, a plain JavaScript module the signing page runs as it is.
export declare function hasVisibleContent(value: string): boolean;
