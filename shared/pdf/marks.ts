// Marks on every page of a file that is not a final legal document: a banner at the top of the
// page with the words (which text extraction finds), in the file's language, and a large faint
// diagonal word across it.
import { degrees, type PDFPage, type RGB, rgb } from 'pdf-lib';
import { drawTextLine } from './draw-text';
import type { TFontSet } from './fonts';
import { frameOf, inFrame } from './page-frame';
import { widthOf } from './text';

export interface TMark {
  banner: string;
  watermark: string;
  color: RGB;
}

/** A test bundle's mark; `banner` in the file's language (the catalogs' `evidence.common.testMode`). */
export const testMark = (banner = 'TEST — not legally binding'): TMark => ({
  banner,
  watermark: 'TEST',
  color: rgb(0.75, 0.1, 0.1),
});

/** An interim file's mark; `banner` in the file's language (`evidence.common.interimMode`). */
export const interimMark = (banner = 'INTERIM — not final'): TMark => ({
  banner,
  watermark: 'INTERIM',
  color: rgb(0.8, 0.42, 0),
});

const BANNER_SIZE = 8;

export function markPages(pages: PDFPage[], fonts: TFontSet, marks: TMark[]): void {
  if (marks.length === 0) return;
  for (const page of pages) {
    const frame = frameOf(page);
    inFrame(page, frame, () => {
      marks.forEach((mark, i) => {
        drawWatermark(page, fonts, mark, frame.width, frame.height, i, marks.length);
        drawBanner(page, fonts, mark, frame.width, frame.height - 4 - i * (BANNER_SIZE + 8));
      });
    });
  }
}

function drawBanner(page: PDFPage, fonts: TFontSet, mark: TMark, pageWidth: number, top: number): void {
  const font = fonts.bold;
  const textWidth = widthOf(font, mark.banner, BANNER_SIZE);
  const width = textWidth + 16;
  const height = BANNER_SIZE + 6;
  const x = (pageWidth - width) / 2;
  page.drawRectangle({ x, y: top - height, width, height, color: mark.color });
  drawTextLine(page, font, mark.banner, {
    x: x + 8,
    y: top - height + 4.2,
    size: BANNER_SIZE,
    color: rgb(1, 1, 1),
  });
}

function drawWatermark(
  page: PDFPage,
  fonts: TFontSet,
  mark: TMark,
  width: number,
  height: number,
  index: number,
  count: number,
): void {
  const font = fonts.bold;
  const angle = Math.atan2(height, width);
  const diagonal = Math.hypot(width, height);
  const size = Math.min(160, (diagonal * 0.55) / Math.max(1, widthOf(font, mark.watermark, 1)));
  const textWidth = widthOf(font, mark.watermark, size);
  // Centre the word on the page's centre (shifted along the other diagonal when there are two).
  const shift = (index - (count - 1) / 2) * size * 1.1;
  const cx = width / 2 - Math.sin(angle) * shift;
  const cy = height / 2 + Math.cos(angle) * shift;
  const capHeight = size * 0.73;
  const x = cx - Math.cos(angle) * (textWidth / 2) + Math.sin(angle) * (capHeight / 2);
  const y = cy - Math.sin(angle) * (textWidth / 2) - Math.cos(angle) * (capHeight / 2);
  page.drawText(mark.watermark, {
    x,
    y,
    size,
    font: font.pdf,
    color: mark.color,
    opacity: 0.12,
    rotate: degrees((angle * 180) / Math.PI),
  });
}
