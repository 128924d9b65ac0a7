// The console's first screen by weight: what a browser downloads before the sign-in screen shows
// (the script, the stylesheet and the reader's words; the words file counted at its largest
// language), gzipped as a server sends it. The target is the sender console's: 150 KB.
import { gzipSync } from 'node:zlib';
import { buildConsole } from '#functions/console-app/build';
import { LANGUAGES } from '#shared/i18n/languages';
import { kb, mark, table } from './format';

export const CONSOLE_TARGETS = { firstScreenMaxGzipBytes: 150 * 1024 } as const;

export interface TConsoleFigures {
  buildMs: number;
  js: { bytes: number; gzip: number };
  css: { bytes: number; gzip: number };
  /** The largest language's words file. */
  words: { lang: string; bytes: number; gzip: number };
  firstScreenGzip: number;
}

export async function benchConsole(): Promise<TConsoleFigures> {
  const t0 = performance.now();
  const built = await buildConsole();
  const buildMs = performance.now() - t0;
  const size = (logical: string) => {
    const contents = built.assets.get(built.manifest[logical]!)!.contents;
    return { bytes: contents.byteLength, gzip: gzipSync(contents, { level: 9 }).byteLength };
  };
  const js = size('main.js');
  const css = size('main.css');
  const words = LANGUAGES.map((lang) => ({ lang, ...size(`locales/${lang}.json`) })).sort(
    (a, b) => b.gzip - a.gzip,
  )[0]!;
  return { buildMs, js, css, words, firstScreenGzip: js.gzip + css.gzip + words.gzip };
}

export function consoleReport(f: TConsoleFigures): string {
  const max = CONSOLE_TARGETS.firstScreenMaxGzipBytes;
  return [
    '',
    `Console first screen (esbuild, minified; built in ${f.buildMs.toFixed(0)} ms)`,
    table(
      [
        ['  file', 'bytes', 'gzip', 'target'],
        ['  script', kb(f.js.bytes), kb(f.js.gzip), ''],
        ['  stylesheet', kb(f.css.bytes), kb(f.css.gzip), ''],
        [`  words (${f.words.lang}, the largest)`, kb(f.words.bytes), kb(f.words.gzip), ''],
        ['  first screen', '', kb(f.firstScreenGzip), `≤ ${kb(max)} ${mark(f.firstScreenGzip <= max)}`],
      ],
      ['l', 'r', 'r', 'l'],
    ),
  ].join('\n');
}

export const consoleJson = (f: TConsoleFigures) => ({
  jsGzipBytes: f.js.gzip,
  cssGzipBytes: f.css.gzip,
  wordsGzipBytes: f.words.gzip,
  firstScreenGzipBytes: f.firstScreenGzip,
  targetGzipBytes: CONSOLE_TARGETS.firstScreenMaxGzipBytes,
  met: f.firstScreenGzip <= CONSOLE_TARGETS.firstScreenMaxGzipBytes,
});
