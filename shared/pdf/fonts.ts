// The fonts of every file the service draws, embedded as subsets through @pdf-lib/fontkit (only
// the glyphs drawn are written): DejaVu (npm dejavu-fonts-ttf) for Latin with all its accents,
// Greek, Cyrillic, Armenian, Georgian, Hebrew and many symbols, and for the scripts DejaVu lacks
// or cannot shape, a Noto Sans face per script (npm @expo-google-fonts/noto-sans-*): Arabic (its
// letters take their joining forms), Devanagari (conjuncts, vowel signs in place), Japanese and
// Simplified Chinese. Text falls back from the DejaVu face to those per run of characters
// (text-runs.ts). A Noto face is read and embedded only in a document whose text needs it: the CJK
// files are 5–10 MB. A character no face has is drawn as '?' and counted, so the pages can say so;
// nothing the signer typed can make drawing fail.
//
// The font files are read from disk once per process: from PDF_FONTS_DIR when set, else from
// `pdf-fonts/` beside the running bundle (copyPdfFonts puts them there), else from node_modules.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PDFDocument } from 'pdf-lib';
import type { TFace, TFallbackScript, TFont, TFontRole, TFontSet, TGlyphRun, THanStyle } from './font-types';
import { installGeneratorRuntime, mendTrueTypeSubsets } from './fontkit-fixes';
import { fallbackScriptsOf } from './text-runs';

export type { TFont, TFontRole, TFontSet } from './font-types';

export const PDF_FONT_FILES: Record<TFontRole, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
  /** Typed signatures and initials: a calligraphic italic reads as a hand-set signature. */
  script: 'DejaVuSerif-Italic.ttf',
};

/** The Noto faces, regular and bold, by the script they serve: package and path inside it. */
export const FALLBACK_FONT_FILES: Record<
  TFallbackScript,
  { package: string; regular: string; bold: string }
> = {
  arabic: {
    package: '@expo-google-fonts/noto-sans-arabic',
    regular: '400Regular/NotoSansArabic_400Regular.ttf',
    bold: '700Bold/NotoSansArabic_700Bold.ttf',
  },
  devanagari: {
    package: '@expo-google-fonts/noto-sans-devanagari',
    regular: '400Regular/NotoSansDevanagari_400Regular.ttf',
    bold: '700Bold/NotoSansDevanagari_700Bold.ttf',
  },
  japanese: {
    package: '@expo-google-fonts/noto-sans-jp',
    regular: '400Regular/NotoSansJP_400Regular.ttf',
    bold: '700Bold/NotoSansJP_700Bold.ttf',
  },
  chinese: {
    package: '@expo-google-fonts/noto-sans-sc',
    regular: '400Regular/NotoSansSC_400Regular.ttf',
    bold: '700Bold/NotoSansSC_700Bold.ttf',
  },
};

/** The folder beside a Lambda bundle's index.mjs that holds the font files. */
export const PDF_FONTS_DIR = 'pdf-fonts';

interface TFontkitFont {
  unitsPerEm: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string): TGlyphRun;
  createSubset(): unknown;
}
interface TFontkit {
  create(bytes: Uint8Array): TFontkitFont;
}

/** Every font file: its name in `pdf-fonts/` and where it is in node_modules. */
function fontFiles(): { name: string; module: string }[] {
  const dejavu = Object.values(PDF_FONT_FILES).map((name) => ({
    name,
    module: `dejavu-fonts-ttf/ttf/${name}`,
  }));
  const noto = Object.values(FALLBACK_FONT_FILES).flatMap((f) =>
    [f.regular, f.bold].map((file) => ({ name: path.basename(file), module: `${f.package}/${file}` })),
  );
  return [...dejavu, ...noto];
}

/** Copies the font files from the repository at `root` into `<outDir>/pdf-fonts/` (bundling step). */
export function copyPdfFonts(root: string, outDir: string): void {
  const target = path.join(outDir, PDF_FONTS_DIR);
  mkdirSync(target, { recursive: true });
  for (const file of fontFiles()) {
    copyFileSync(path.join(root, 'node_modules', file.module), path.join(target, file.name));
  }
}

function fontPath(file: { name: string; module: string }): string {
  const fromEnv = process.env.PDF_FONTS_DIR;
  if (fromEnv) return path.join(fromEnv, file.name);
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), PDF_FONTS_DIR, file.name);
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(file.module);
}

function fileOf(face: TFace): { name: string; module: string } {
  if (face in PDF_FONT_FILES) {
    const name = PDF_FONT_FILES[face as TFontRole];
    return { name, module: `dejavu-fonts-ttf/ttf/${name}` };
  }
  const [script, weight] = face.split('-') as [TFallbackScript, 'regular' | 'bold'];
  const f = FALLBACK_FONT_FILES[script];
  return { name: path.basename(f[weight]), module: `${f.package}/${f[weight]}` };
}

const bytesCache = new Map<TFace, Uint8Array>();
/** Parsed fonts, by the bytes they were parsed from (the cached bytes of each face). */
const parsedCache = new WeakMap<Uint8Array, TFontkitFont>();
let fontkitLoading: Promise<TFontkit> | undefined;

function fontBytes(face: TFace): Uint8Array {
  let bytes = bytesCache.get(face);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(fontPath(fileOf(face))));
    bytesCache.set(face, bytes);
  }
  return bytes;
}

/**
 * @pdf-lib/fontkit (a UMD file: its functions sit on `default` when imported from ESM), with
 * `create` remembering what it parsed: pdf-lib parses a font file anew for every document that
 * embeds it, which cost more than the rest of stamping a document. Each document still gets its
 * own subset; the parsed font is only read, and fontkit reads it synchronously.
 */
function loadFontkit(): Promise<TFontkit> {
  fontkitLoading ??= import('@pdf-lib/fontkit').then((m) => {
    installGeneratorRuntime();
    const fontkit = ((m as { default?: TFontkit }).default ?? m) as TFontkit;
    return {
      ...fontkit,
      create(bytes: Uint8Array) {
        let font = parsedCache.get(bytes);
        if (!font) {
          font = fontkit.create(bytes);
          mendTrueTypeSubsets(font);
          parsedCache.set(bytes, font);
        }
        return font;
      },
    };
  });
  return fontkitLoading;
}

export interface TEmbedOptions {
  /** The DejaVu roles to embed; roles not asked for are drawn with the regular font. */
  roles?: readonly TFontRole[];
  /**
   * Every text the document will draw (or more): a script's Noto face is embedded when some
   * text needs it. Text not given here falls back to the faces already embedded, else '?'.
   */
  texts?: Iterable<string>;
  /** The document's language: Japanese draws Han characters with the Japanese face. */
  language?: string;
}

/** Embeds the fonts in `doc` as subsets: the DejaVu roles asked for and the Noto faces `texts` need. */
export async function embedFonts(doc: PDFDocument, options: TEmbedOptions = {}): Promise<TFontSet> {
  const fontkit = await loadFontkit();
  doc.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  const han: THanStyle = options.language?.toLowerCase().startsWith('ja') ? 'japanese' : 'chinese';
  const embed = async (face: TFace): Promise<TFont> => {
    const parsed = fontkit.create(fontBytes(face));
    const pdf = await doc.embedFont(fontBytes(face), { subset: true });
    return {
      pdf,
      face,
      shaped: face.startsWith('arabic') || face.startsWith('devanagari'),
      layout: (text) => parsed.layout(text),
      unitsPerEm: parsed.unitsPerEm,
      covers: (cp) => parsed.hasGlyphForCodePoint(cp),
      fallbacks: {},
      han,
    };
  };
  const scripts = fallbackScriptsOf(options.texts ?? [], han);
  const fallbacks = { regular: {}, bold: {} } as Record<'regular' | 'bold', TFont['fallbacks']>;
  for (const script of scripts) {
    for (const weight of ['regular', 'bold'] as const) {
      fallbacks[weight][script] = await embed(`${script}-${weight}`);
    }
  }
  const roles = options.roles ?? ['regular', 'bold', 'mono', 'script'];
  const embedded = new Map<TFontRole, TFont>();
  for (const role of new Set<TFontRole>(['regular', ...roles])) {
    const font = await embed(role);
    font.fallbacks = role === 'bold' ? fallbacks.bold : fallbacks.regular;
    embedded.set(role, font);
  }
  const regular = embedded.get('regular')!;
  const pick = (role: TFontRole) => embedded.get(role) ?? regular;
  return {
    regular,
    bold: pick('bold'),
    mono: pick('mono'),
    script: pick('script'),
    missing: new Set<string>(),
  };
}
