// The fonts of every file the service draws: DejaVu (npm dejavu-fonts-ttf), embedded as subsets
// through @pdf-lib/fontkit, so a value in any script DejaVu covers (Latin with all its accents,
// Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic letters, many symbols) is drawn as entered
// and comes back out of the file as text. Characters DejaVu lacks (CJK, for one) are drawn as '?'
// and counted, so the audit page can say so; nothing the signer typed can make drawing fail.
//
// The font files are read from disk once per process: from PDF_FONTS_DIR when set, else from
// `pdf-fonts/` beside the running bundle (copyPdfFonts puts them there), else from node_modules.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PDFDocument, PDFFont } from 'pdf-lib';

export const PDF_FONT_FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
  /** Typed signatures and initials: a calligraphic italic reads as a hand-set signature. */
  script: 'DejaVuSerif-Italic.ttf',
} as const;
export type TFontRole = keyof typeof PDF_FONT_FILES;

/** The folder beside a Lambda bundle's index.mjs that holds the font files. */
export const PDF_FONTS_DIR = 'pdf-fonts';

interface TFontkitFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
interface TFontkit {
  create(bytes: Uint8Array): TFontkitFont;
}

/** Copies the font files from the repository at `root` into `<outDir>/pdf-fonts/` (bundling step). */
export function copyPdfFonts(root: string, outDir: string): void {
  const target = path.join(outDir, PDF_FONTS_DIR);
  mkdirSync(target, { recursive: true });
  for (const file of Object.values(PDF_FONT_FILES)) {
    copyFileSync(path.join(root, 'node_modules/dejavu-fonts-ttf/ttf', file), path.join(target, file));
  }
}

function fontPath(file: string): string {
  const fromEnv = process.env.PDF_FONTS_DIR;
  if (fromEnv) return path.join(fromEnv, file);
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), PDF_FONTS_DIR, file);
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`);
}

const bytesCache = new Map<TFontRole, Uint8Array>();
/** Parsed fonts, by the bytes they were parsed from (the cached bytes of each role). */
const parsedCache = new WeakMap<Uint8Array, TFontkitFont>();
let fontkitLoading: Promise<TFontkit> | undefined;

function fontBytes(role: TFontRole): Uint8Array {
  let bytes = bytesCache.get(role);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(fontPath(PDF_FONT_FILES[role])));
    bytesCache.set(role, bytes);
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
    const fontkit = ((m as { default?: TFontkit }).default ?? m) as TFontkit;
    return {
      ...fontkit,
      create(bytes: Uint8Array) {
        let font = parsedCache.get(bytes);
        if (!font) {
          font = fontkit.create(bytes);
          parsedCache.set(bytes, font);
        }
        return font;
      },
    };
  });
  return fontkitLoading;
}

/** A font embedded in one document, with what it can draw. */
export interface TFont {
  pdf: PDFFont;
  role: TFontRole;
  covers(codePoint: number): boolean;
}

export type TFontSet = Record<TFontRole, TFont> & {
  /** Characters replaced by '?' so far in this document, because no font here has them. */
  missing: Set<string>;
};

/**
 * Embeds the fonts in `doc` as subsets: only the glyphs drawn are written, so the four fonts
 * add a few kilobytes each, not the 2.5 MB of the files. `roles` limits which are embedded.
 */
export async function embedFonts(
  doc: PDFDocument,
  roles: readonly TFontRole[] = ['regular', 'bold', 'mono', 'script'],
): Promise<TFontSet> {
  const fontkit = await loadFontkit();
  doc.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
  const embed = async (role: TFontRole): Promise<TFont> => {
    const parsed = fontkit.create(fontBytes(role));
    const pdf = await doc.embedFont(fontBytes(role), { subset: true });
    return { pdf, role, covers: (cp) => parsed.hasGlyphForCodePoint(cp) };
  };
  const embedded = new Map<TFontRole, TFont>();
  for (const role of new Set<TFontRole>(['regular', ...roles])) embedded.set(role, await embed(role));
  const regular = embedded.get('regular')!;
  // Roles not asked for are drawn with the regular font, so callers need not check.
  const pick = (role: TFontRole) => embedded.get(role) ?? regular;
  return {
    regular,
    bold: pick('bold'),
    mono: pick('mono'),
    script: pick('script'),
    missing: new Set<string>(),
  };
}
