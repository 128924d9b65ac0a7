// Where to draw on a page of someone else's PDF. Field geometry is in percent of the page as a
// viewer displays it (inspect-pdf.ts measures the same): the CropBox within the MediaBox, turned
// by /Rotate. Drawing happens in that displayed frame — x right, y up, origin at the displayed
// bottom-left — inside a `cm` that maps it onto the page's own user space, so values land in
// place and stand upright on cropped and rotated pages alike.
import { concatTransformationMatrix, type PDFPage, popGraphicsState, pushGraphicsState } from 'pdf-lib';

export interface TPageFrame {
  /** Displayed size in points. */
  width: number;
  height: number;
  /** Displayed frame → user space, as the six numbers of a PDF `cm`. */
  matrix: [number, number, number, number, number, number];
}

export function frameOf(page: PDFPage): TPageFrame {
  const media = normalized(page.getMediaBox());
  // What viewers assume for a page without a usable MediaBox (page-tree.ts does the same).
  let box = media.width > 0 && media.height > 0 ? media : { x: 0, y: 0, width: 612, height: 792 };
  const crop = normalized(page.getCropBox());
  // A CropBox is clipped to the MediaBox; one that leaves nothing is ignored, as viewers do.
  const x1 = Math.max(crop.x, box.x);
  const y1 = Math.max(crop.y, box.y);
  const x2 = Math.min(crop.x + crop.width, box.x + box.width);
  const y2 = Math.min(crop.y + crop.height, box.y + box.height);
  if (x2 > x1 && y2 > y1) box = { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  const { x, y, width: w, height: h } = box;
  const angle = page.getRotation().angle;
  const turns = Number.isInteger(angle) && angle % 90 === 0 ? (((angle / 90) % 4) + 4) % 4 : 0;
  switch (turns) {
    case 1: // shown turned a quarter clockwise: displayed x runs up the page, displayed y leftwards
      return { width: h, height: w, matrix: [0, 1, -1, 0, x + w, y] };
    case 2:
      return { width: w, height: h, matrix: [-1, 0, 0, -1, x + w, y + h] };
    case 3:
      return { width: h, height: w, matrix: [0, -1, 1, 0, x, y + h] };
    default:
      return { width: w, height: h, matrix: [1, 0, 0, 1, x, y] };
  }
}

type TRect = { x: number; y: number; width: number; height: number };

/** Writers may give a box's corners in any order. */
function normalized({ x, y, width, height }: TRect): TRect {
  return {
    x: Math.min(x, x + width),
    y: Math.min(y, y + height),
    width: Math.abs(width),
    height: Math.abs(height),
  };
}

/** Runs `draw` with the displayed frame as the coordinate system of `page`. */
export function inFrame(page: PDFPage, frame: TPageFrame, draw: () => void): void {
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...frame.matrix));
  try {
    draw();
  } finally {
    page.pushOperators(popGraphicsState());
  }
}

/** A field's box in the displayed frame, in points, from its percent geometry. */
export function boxOf(frame: TPageFrame, f: { x: number; y: number; w: number; h: number }): TRect {
  const width = (f.w / 100) * frame.width;
  const height = (f.h / 100) * frame.height;
  const x = (f.x / 100) * frame.width;
  const top = frame.height - (f.y / 100) * frame.height;
  return { x, y: top - height, width, height };
}
