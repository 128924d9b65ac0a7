// A value stamped into a field stays inside the field's box with room to spare, whatever its
// script: Arabic letters and their marks reach further below the line and above the capitals than
// Latin ones, and placed by Latin metrics they touched the form's lines. Checked on the page as
// poppler draws it.
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { drawLine } from '#shared/pdf/draw-value';
import { embedFonts } from '#shared/pdf/fonts';
import { pageGrey } from '../helpers/poppler';

const DPI = 288;
const PX = DPI / 72;

/** The rows (in points from the page's bottom) holding ink of `text` stamped into `box`. */
async function inkOf(text: string, box: { x: number; y: number; width: number; height: number }) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 60]);
  const fonts = await embedFonts(doc, { roles: ['regular'], texts: [text] });
  drawLine(page, fonts.regular, text, box);
  const grey = pageGrey(await doc.save(), 1, DPI);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < grey.height; y++)
    for (let x = 0; x < grey.width; x++)
      if (grey.at(x, y) < 160) {
        if (top < 0) top = y;
        bottom = y;
      }
  // Rows count down from the top; the page is 60 pt tall.
  return { top: 60 - top / PX, bottom: 60 - (bottom + 1) / PX };
}

describe('a stamped value', () => {
  it.each([
    ['Arabic', 'محمد عبد الله يوسف'],
    ['Arabic with its vowel marks', 'جُمْلَة قَصِيرَة'],
    ['Devanagari', 'प्रियंका शर्मा'],
    ['Latin with accents', 'Ågnes Lykke-Jørgensen'],
  ])('in %s keeps a padding inside the field box, however tall the box', async (_, text) => {
    for (const height of [8, 10, 14]) {
      const box = { x: 10, y: 20, width: 180, height };
      const ink = await inkOf(text, box);
      const at = JSON.stringify({ ink, box });
      // At least a point, and a tenth of the box's height up to two points.
      const padding = Math.min(2, Math.max(1, height * 0.1));
      expect(ink.top, at).toBeLessThanOrEqual(box.y + box.height - padding);
      expect(ink.bottom, at).toBeGreaterThanOrEqual(box.y + padding);
    }
  });
});
