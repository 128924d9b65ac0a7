/** Each language's console words, by language tag: the URL of its hashed asset (set by build.ts). */
declare const CONSOLE_LOCALES: Record<string, string>;

/** Stylesheets are bundled by esbuild into the console's one CSS file. */
declare module '*.css';
