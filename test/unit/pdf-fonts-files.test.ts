// Where the font files are read from: the folder copyPdfFonts fills beside the document worker's
// bundle (PDF_FONTS_DIR names it here, as the bundle's own folder would), the Noto faces included.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { copyPdfFonts, embedFonts, PDF_FONTS_DIR } from '#shared/pdf/fonts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'pdf-fonts-'));
const saved = process.env.PDF_FONTS_DIR;
afterAll(() => {
  if (saved === undefined) delete process.env.PDF_FONTS_DIR;
  else process.env.PDF_FONTS_DIR = saved;
  rmSync(out, { recursive: true, force: true });
});

describe('the font files of the bundle', () => {
  it('are DejaVu’s four and each Noto face in regular and bold, and are what the PDFs are drawn with', async () => {
    copyPdfFonts(ROOT, out);
    const dir = path.join(out, PDF_FONTS_DIR);
    expect(readdirSync(dir).sort()).toEqual([
      'DejaVuSans-Bold.ttf',
      'DejaVuSans.ttf',
      'DejaVuSansMono.ttf',
      'DejaVuSerif-Italic.ttf',
      'NotoSansArabic_400Regular.ttf',
      'NotoSansArabic_700Bold.ttf',
      'NotoSansDevanagari_400Regular.ttf',
      'NotoSansDevanagari_700Bold.ttf',
      'NotoSansJP_400Regular.ttf',
      'NotoSansJP_700Bold.ttf',
      'NotoSansSC_400Regular.ttf',
      'NotoSansSC_700Bold.ttf',
    ]);
    // A folder without them: nothing falls back to node_modules behind the operator's back.
    process.env.PDF_FONTS_DIR = mkdtempSync(path.join(tmpdir(), 'no-fonts-'));
    await expect(embedFonts(await PDFDocument.create(), { texts: ['ليلى'] })).rejects.toThrow(/ENOENT/);
    process.env.PDF_FONTS_DIR = dir;
    const fonts = await embedFonts(await PDFDocument.create(), { texts: ['ليلى', 'अनीता', '山田 はな'] });
    expect(Object.keys(fonts.regular.fallbacks).sort()).toEqual(['arabic', 'devanagari', 'japanese']);
  });
});
