// Makes the public pages' web fonts (functions/public-pages/web-fonts.ts serves them): for each
// script a language of the service is written in, other than Latin, a style sheet of @font-face
// rules and the font files they name, subsets of the fonts the evidence PDFs embed
// (shared/pdf/fonts.ts; DejaVu Sans for Hebrew), cut by HarfBuzz's subsetter (npm subset-font),
// which keeps the tables that shape Arabic and Devanagari.
//
// - Arabic, Devanagari, Hebrew: one WOFF2 file each, the script's whole blocks (20–80 KB).
// - Japanese, Simplified Chinese: the fonts are 5–10 MB. One WOFF2 file holds the kana, CJK
//   punctuation, full-width forms, every character of the language's message catalog and of the
//   language menu (each language's own name), so the page's own words need that one file; the ideographs a sender's or signer's text may use come
//   in WOFF files of 1,024 code points each (less those of the main file), which the browser
//   fetches only for a character in them (`unicode-range`). WOFF, not WOFF2, for those: Brotli at WOFF2's setting takes about
//   5 s a file (a minute per font at each build), zlib a tenth of that, for files a page rarely
//   needs.
//
// Regular weight only: the browser emboldens it for bold text. Each file is made when first
// asked for and kept under node_modules/.cache, so a local runtime starts at once and later
// runs and builds reuse them; `copyWebFonts` makes them all for a Lambda bundle.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type TWebFontScript,
  type TWebFontStore,
  WEB_FONT_SCRIPT,
  WEB_FONTS_DIR,
} from '#functions/public-pages/web-fonts';
import { LANGUAGES } from '#shared/i18n/languages';
import { FALLBACK_FONT_FILES } from '#shared/pdf/fonts';

type TRange = readonly [number, number];

interface TScriptFont {
  /** The font file, as a module path. */
  module: string;
  /** The code points of the one WOFF2 file. */
  ranges: TRange[];
  /** With these, the characters of the catalogs of the languages written in the script join it. */
  catalogs?: boolean;
  /** Code points served in WOFF files of BLOCK code points each (the ideographs). */
  blocks?: TRange[];
}

const BLOCK = 1024;
const JOINERS: TRange = [0x200c, 0x200f];
const CJK_COMMON: TRange[] = [
  [0x3000, 0x30ff],
  [0x31f0, 0x31ff],
  [0xff00, 0xffef],
];
const IDEOGRAPHS: TRange[] = [
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xf900, 0xfaff],
];
const noto = (script: keyof typeof FALLBACK_FONT_FILES) =>
  `${FALLBACK_FONT_FILES[script].package}/${FALLBACK_FONT_FILES[script].regular}`;

const SCRIPTS: Record<TWebFontScript, TScriptFont> = {
  arabic: {
    module: noto('arabic'),
    ranges: [
      [0x0600, 0x06ff],
      [0x0750, 0x077f],
      [0x08a0, 0x08ff],
      [0xfb50, 0xfdff],
      [0xfe70, 0xfeff],
      JOINERS,
    ],
  },
  devanagari: {
    module: noto('devanagari'),
    ranges: [
      [0x0900, 0x097f],
      [0x1cd0, 0x1cff],
      [0xa8e0, 0xa8ff],
      [0x20b9, 0x20b9],
      [0x25cc, 0x25cc],
      JOINERS,
    ],
  },
  hebrew: {
    module: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
    ranges: [[0x0591, 0x05f4], [0xfb1d, 0xfb4f], JOINERS],
  },
  japanese: { module: noto('japanese'), ranges: CJK_COMMON, catalogs: true, blocks: IDEOGRAPHS },
  chinese: { module: noto('chinese'), ranges: CJK_COMMON, catalogs: true, blocks: IDEOGRAPHS },
};

/** The family name the style sheets declare, one per script. */
const familyOf = (script: TWebFontScript) => `Esign ${script[0]!.toUpperCase()}${script.slice(1)}`;

interface TFile {
  name: string;
  codePoints: number[];
  format: 'woff2' | 'woff';
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

function codePointsIn(ranges: TRange[]): number[] {
  return ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

/** Every file of a script: the main WOFF2 file, then the blocks. */
function filesOf(root: string, script: TWebFontScript): TFile[] {
  const spec = SCRIPTS[script];
  const main = new Set(codePointsIn(spec.ranges));
  if (spec.catalogs) {
    const langs = Object.entries(WEB_FONT_SCRIPT)
      .filter(([, s]) => s === script)
      .map(([l]) => l);
    // The page's words, and the language menu's (each language's name in its own words).
    const texts = [
      ...langs.map((lang) => readFileSync(path.join(root, 'shared/i18n/locales', `${lang}.json`), 'utf8')),
      ...LANGUAGES.map((tag) => new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? ''),
    ];
    for (const text of texts)
      for (const ch of text) if (ch.codePointAt(0)! > 0x2e7f) main.add(ch.codePointAt(0)!);
  }
  const files: TFile[] = [
    { name: `${script}.woff2`, codePoints: [...main].sort((a, b) => a - b), format: 'woff2' },
  ];
  // The blocks leave out what the main file holds: a browser fetches every face whose range
  // covers a character shown while the one it would use is still loading.
  const blocks = codePointsIn(spec.blocks ?? []).filter((cp) => !main.has(cp));
  for (let i = 0; i * BLOCK < blocks.length; i++)
    files.push({
      name: `${script}-${i + 1}.woff`,
      codePoints: blocks.slice(i * BLOCK, (i + 1) * BLOCK),
      format: 'woff',
    });
  return files;
}

/** `unicode-range` of sorted code points: runs as `U+4E00-4EFF`. */
function unicodeRange(codePoints: number[]): string {
  const runs: string[] = [];
  const hex = (n: number) => n.toString(16).toUpperCase();
  for (let i = 0; i < codePoints.length; ) {
    let j = i;
    while (j + 1 < codePoints.length && codePoints[j + 1] === codePoints[j]! + 1) j++;
    runs.push(j === i ? `U+${hex(codePoints[i]!)}` : `U+${hex(codePoints[i]!)}-${hex(codePoints[j]!)}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/**
 * The style sheet of a script, the main file's face last. It also sets `--script-font`, which
 * app.css puts after the system's Latin fonts.
 */
function styleSheet(root: string, script: TWebFontScript): string {
  const family = familyOf(script);
  const rules = filesOf(root, script)
    .reverse()
    .map(
      (f) =>
        `@font-face {\n  font-family: "${family}";\n  src: url("${f.name}") format("${f.format}");\n  font-weight: 400;\n  font-display: swap;\n  unicode-range: ${unicodeRange(f.codePoints)};\n}\n`,
    );
  return `/* ${family}: subsets of ${SCRIPTS[script].module.split('/')[0]} (made by infra/web-fonts.ts). */\n${rules.join('')}:root {\n  --script-font: "${family}";\n}\n`;
}

const fontPath = (root: string, module: string) =>
  createRequire(path.join(root, 'package.json')).resolve(module);

/** A hash of everything the files are made from: the scripts, the font files, the catalogs. */
function versionOf(root: string): string {
  const h = createHash('sha256').update(JSON.stringify({ SCRIPTS, BLOCK, v: 1 }));
  for (const script of Object.keys(SCRIPTS) as TWebFontScript[]) {
    const file = fontPath(root, SCRIPTS[script].module);
    h.update(file.slice(file.lastIndexOf('node_modules'))).update(String(statSync(file).size));
    h.update(styleSheet(root, script));
  }
  return h.digest('hex').slice(0, 16);
}

function allNames(root: string): string[] {
  return (Object.keys(SCRIPTS) as TWebFontScript[]).flatMap((script) => [
    `${script}.css`,
    ...filesOf(root, script).map((f) => f.name),
  ]);
}

/** Makes the file `name` (a style sheet or a font), or undefined for a name that is not one. */
async function make(root: string, name: string): Promise<Buffer | undefined> {
  const css = /^([a-z]+)\.css$/.exec(name)?.[1] as TWebFontScript | undefined;
  if (css && css in SCRIPTS) return Buffer.from(styleSheet(root, css));
  const script = /^([a-z]+)[-.]/.exec(name)?.[1] as TWebFontScript | undefined;
  if (!script || !(script in SCRIPTS)) return undefined;
  const file = filesOf(root, script).find((f) => f.name === name);
  if (!file) return undefined;
  const source = readFileSync(fontPath(root, SCRIPTS[script].module));
  // Loaded when a file is first made: the subsetter and its WebAssembly weigh on a runtime's start.
  const { default: subsetFont } = await import('subset-font');
  return subsetFont(source, String.fromCodePoint(...file.codePoints), { targetFormat: file.format });
}

/**
 * The files of the repository at `root`, made on first request and kept in `cacheDir` (by
 * default node_modules/.cache/open-esign-web-fonts/<version>/).
 */
export function repositoryWebFonts(root = REPO_ROOT, cacheDir?: string): TWebFontStore {
  // Worked out when a page first asks (about 0.1 s), not at every runtime's start.
  let known: { version: string; dir: string; names: Set<string> } | undefined;
  const files = () => {
    if (!known) {
      const version = versionOf(root);
      known = {
        version,
        dir: cacheDir ?? path.join(root, 'node_modules/.cache/open-esign-web-fonts', version),
        names: new Set(allNames(root)),
      };
    }
    return known;
  };
  const making = new Map<string, Promise<Buffer | undefined>>();
  return {
    get version() {
      return files().version;
    },
    read(name) {
      const { dir, names } = files();
      if (!names.has(name)) return Promise.resolve(undefined);
      const kept = path.join(dir, name);
      if (existsSync(kept)) return Promise.resolve(readFileSync(kept));
      let pending = making.get(name);
      if (!pending) {
        pending = make(root, name).then((bytes) => {
          if (bytes) {
            mkdirSync(dir, { recursive: true });
            // Written whole or not at all: another process may read the cache meanwhile.
            const temp = `${kept}.${process.pid}.tmp`;
            writeFileSync(temp, bytes);
            renameSync(temp, kept);
          }
          making.delete(name);
          return bytes;
        });
        making.set(name, pending);
      }
      return pending;
    },
  };
}

/** Makes every file (or takes it from the cache) into `outDir`, with the manifest web-fonts.ts reads. */
export async function writeWebFonts(root: string, outDir: string): Promise<void> {
  const fonts = repositoryWebFonts(root);
  const target = path.join(outDir, WEB_FONTS_DIR);
  mkdirSync(target, { recursive: true });
  const files = allNames(root);
  for (const name of files) writeFileSync(path.join(target, name), (await fonts.read(name))!);
  writeFileSync(path.join(target, 'manifest.json'), `${JSON.stringify({ version: fonts.version, files })}\n`);
}

/**
 * The bundling step of the public pages Lambda (infra/bundling.ts): CDK bundles synchronously, and
 * the subsetter is asynchronous, so the files are made by this module run as a child process.
 */
export function copyWebFonts(root: string, outDir: string): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), root, outDir], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`making the web fonts failed (exit ${run.status ?? run.signal})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeWebFonts(process.argv[2]!, process.argv[3]!).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
