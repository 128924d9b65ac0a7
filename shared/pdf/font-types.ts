// The types of the fonts a document draws with (fonts.ts embeds them, text-runs.ts picks among
// them), apart so that both can name them without depending on each other.
import type { PDFFont } from 'pdf-lib';

/** The DejaVu faces, by what they draw. */
export type TFontRole = 'regular' | 'bold' | 'mono' | 'script';
/** The scripts with a Noto face of their own. */
export type TFallbackScript = 'arabic' | 'devanagari' | 'japanese' | 'chinese';
/** Han characters are shared by Japanese and Chinese, drawn differently: which face draws them. */
export type THanStyle = 'japanese' | 'chinese';
/** A font file by what it is for: a DejaVu role, or a script's Noto face in one weight. */
export type TFace = TFontRole | `${TFallbackScript}-${'regular' | 'bold'}`;

/** What fontkit's layout gives: the glyphs after shaping and where each goes, in font units. */
export interface TGlyphRun {
  /** Each glyph, with its outline's box in font units (an empty one, a space's, is not finite). */
  glyphs: { id: number; advanceWidth: number; bbox: { minY: number; maxY: number } }[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
}
/** A font embedded in one document, with what it can draw and the faces that stand in for it. */
export interface TFont {
  pdf: PDFFont;
  /** The font file, which also keys what is remembered about it across documents. */
  face: TFace;
  /**
   * A face whose glyphs are placed by the font's positioning rules (Arabic dots and vowel marks,
   * Devanagari signs): drawn glyph by glyph where `layout` puts them, and measured by it too.
   */
  shaped: boolean;
  /** fontkit's shaping of a text in this face; positions in units of `unitsPerEm`. */
  layout(text: string): TGlyphRun;
  unitsPerEm: number;
  covers(codePoint: number): boolean;
  /** Noto faces of the same weight, by script, for characters this face lacks or cannot shape. */
  fallbacks: Partial<Record<TFallbackScript, TFont>>;
  /** Which face draws Han characters that are both Japanese and Chinese. */
  han: THanStyle;
}

export type TFontSet = Record<TFontRole, TFont> & {
  /** Characters replaced by '?' so far in this document, because no font here has them. */
  missing: Set<string>;
};
