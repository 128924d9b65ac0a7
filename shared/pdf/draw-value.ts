// Drawing one value into a box: text shrunk (and for multi-line fields wrapped) to fit, a
// signature image fitted keeping its proportions, a typed signature in the script font over a
// thin line, a check mark. Boxes are in the coordinates the caller has set up (page-frame.ts).
// A value that starts in a right-to-left script (Arabic, Hebrew) is drawn from the box's right edge.
import {
  LineCapStyle,
  LineJoinStyle,
  type PDFImage,
  type PDFPage,
  type RGB,
  rgb,
  setLineJoin,
} from 'pdf-lib';
import { directionOfText } from './bidi';
import { drawTextLine } from './draw-text';
import type { TFont } from './fonts';
import { inkOf, widthOf, wrapText } from './text';

export interface TBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Filled-in values: a dark blue-black, told apart from the printed form but sober. */
export const INK = rgb(0.06, 0.1, 0.3);
const MAX_TEXT_SIZE = 11;
const MIN_TEXT_SIZE = 4;
const LINE_HEIGHT = 1.2;
// DejaVu's ascent, as a fraction of the font size.
const ASCENT = 0.93;

const paddingOf = (box: TBox) => Math.min(2, box.height * 0.1, box.width * 0.05);
/** Room kept between a line's glyphs and the box's top and bottom lines: a point and more. */
const verticalPaddingOf = (box: TBox) => Math.min(2.25, Math.max(1.25, box.height * 0.125), box.height / 4);

/**
 * One line, vertically centred, at the largest size up to `maxSize` that fits both the box's
 * height and width. Text too long for one line even at the smallest size is wrapped instead,
 * so no part of a value is ever cut off.
 */
export function drawLine(
  page: PDFPage,
  font: TFont,
  text: string,
  box: TBox,
  { maxSize = MAX_TEXT_SIZE, color = INK } = {},
): void {
  if (text === '') return;
  const pad = paddingOf(box);
  const room = box.width - 2 * pad;
  // The glyphs themselves, not a Latin line's metrics, keep clear of the box's lines: Arabic and
  // Devanagari reach further above and below than Latin capitals.
  const padY = verticalPaddingOf(box);
  const ink = inkOf(font, text);
  const inkHeight = ink.above + ink.below;
  let size = Math.min(maxSize, (box.height - 2 * pad) / LINE_HEIGHT, (box.height - 2 * padY) / inkHeight);
  const width = widthOf(font, text, size);
  if (width > room) size = (size * room) / width;
  if (size < MIN_TEXT_SIZE) {
    if (widthOf(font, text, MIN_TEXT_SIZE) > room) {
      drawWrapped(page, font, text, box, { color });
      return;
    }
    size = MIN_TEXT_SIZE;
  }
  // The ink centred in the box: for Latin without descenders, the cap height centred as before.
  const y = box.y + (box.height - inkHeight * size) / 2 + ink.below * size;
  drawStart(page, font, text, box, { y, size, color, direction: directionOfText(text) });
}

/** One line at the start of the box: its left edge, or its right edge for right-to-left text. */
function drawStart(
  page: PDFPage,
  font: TFont,
  text: string,
  box: TBox,
  { y, size, color, direction }: { y: number; size: number; color: RGB; direction: 'ltr' | 'rtl' },
): void {
  const pad = paddingOf(box);
  const x = direction === 'rtl' ? box.x + box.width - pad - widthOf(font, text, size) : box.x + pad;
  drawTextLine(page, font, text, { x, y, size, color, direction });
}

/**
 * Wrapped lines from the box's top, at the largest size (found by bisection) at which every line
 * fits the box. When even the smallest size does not fit, the text runs on below the box.
 */
export function drawWrapped(
  page: PDFPage,
  font: TFont,
  text: string,
  box: TBox,
  { maxSize = MAX_TEXT_SIZE, color = INK } = {},
): void {
  if (text.trim() === '') return;
  const pad = paddingOf(box);
  const room = Math.max(1, box.width - 2 * pad);
  const fits = (size: number) =>
    wrapText(font, text, size, room).length * size * LINE_HEIGHT <= box.height - 2 * pad;
  let size = MIN_TEXT_SIZE;
  if (fits(maxSize)) size = maxSize;
  else if (fits(MIN_TEXT_SIZE)) {
    let lo = MIN_TEXT_SIZE;
    let hi = maxSize;
    while (hi - lo > 0.25) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    size = lo;
  }
  const lines = wrapText(font, text, size, room);
  const direction = directionOfText(text);
  let y = box.y + box.height - pad - size * ASCENT;
  for (const line of lines) {
    if (line !== '') drawStart(page, font, line, box, { y, size, color, direction });
    y -= size * LINE_HEIGHT;
  }
}

/** The image centred in the box, as large as fits without changing its proportions. */
export function drawFittedImage(page: PDFPage, image: PDFImage, box: TBox): void {
  const pad = paddingOf(box);
  const scale = Math.min((box.width - 2 * pad) / image.width, (box.height - 2 * pad) / image.height);
  if (!(scale > 0)) return;
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, {
    x: box.x + (box.width - width) / 2,
    y: box.y + (box.height - height) / 2,
    width,
    height,
  });
}

/** A typed signature or initials: the script font, sized to the box, over a thin line. */
export function drawTyped(page: PDFPage, font: TFont, text: string, box: TBox): void {
  const lineY = box.y + box.height * 0.16;
  const pad = paddingOf(box);
  const room = box.width - 2 * pad;
  let size = Math.min(box.height * 0.62, 30);
  const width = widthOf(font, text, size);
  if (width > room) size = Math.max(MIN_TEXT_SIZE, (size * room) / width);
  const textWidth = widthOf(font, text, size);
  const x = box.x + Math.max(pad, (box.width - textWidth) / 2);
  drawTextLine(page, font, text, { x, y: lineY + box.height * 0.1, size, color: INK });
  page.drawLine({
    start: { x: box.x + pad, y: lineY },
    end: { x: box.x + box.width - pad, y: lineY },
    thickness: 0.5,
    color: rgb(0.45, 0.45, 0.5),
  });
}

/** A check mark in a square centred in the box. */
export function drawCheck(page: PDFPage, box: TBox): void {
  const side = Math.min(box.width, box.height) * 0.8;
  const left = box.x + (box.width - side) / 2;
  const top = box.y + (box.height + side) / 2;
  // SVG coordinates: y grows downwards from `top`.
  const p = (x: number, y: number) => `${(x * side).toFixed(2)} ${(y * side).toFixed(2)}`;
  page.pushOperators(setLineJoin(LineJoinStyle.Round));
  page.drawSvgPath(`M ${p(0.15, 0.52)} L ${p(0.4, 0.78)} L ${p(0.87, 0.2)}`, {
    x: left,
    y: top,
    borderColor: INK,
    borderWidth: Math.max(0.8, side * 0.12),
    borderLineCap: LineCapStyle.Round,
  });
}
