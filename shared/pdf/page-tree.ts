import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib';
import { corrupt, tooManyPages } from './pdf-rejected-error';

export interface TPageSize {
  width: number;
  height: number;
}

export type TRect = [x1: number, y1: number, x2: number, y2: number];

interface TInherited {
  mediaBox?: PDFObject;
  cropBox?: PDFObject;
  rotate?: PDFObject;
}

// What viewers (pdf.js, Acrobat) assume when a page has no usable MediaBox.
const LETTER: TRect = [0, 0, 612, 792];

/**
 * The displayed size of every page, in document order. Walks the tree itself rather than with
 * pdf-lib's getPages(), which recurses without a cycle check or a bound: this one visits each
 * node once, stops as soon as there are more than `maxPages` pages, and resolves the
 * inheritable MediaBox, CropBox and Rotate on the way down.
 */
export function pageSizesOf(pageTreeRoot: PDFDict, maxPages: number): TPageSize[] {
  return pagesOf(pageTreeRoot, maxPages).map((p) => p.size);
}

/** A page as a viewer shows it: its dictionary, displayed size, visible area and turn. */
export interface TPageNode {
  node: PDFDict;
  size: TPageSize;
  /** The CropBox clipped to the MediaBox, in the page's user space: [x1, y1, x2, y2]. */
  visible: TRect;
  /** 0, 90, 180 or 270 degrees clockwise. */
  rotation: number;
}

/** Every page of the tree, walked as pageSizesOf says. */
export function pagesOf(pageTreeRoot: PDFDict, maxPages: number): TPageNode[] {
  const pages: TPageNode[] = [];
  const visited = new Set<PDFDict>();
  const stack: { node: PDFDict; inherited: TInherited }[] = [{ node: pageTreeRoot, inherited: {} }];
  while (stack.length > 0) {
    const { node, inherited } = stack.pop()!;
    if (visited.has(node)) throw corrupt('its page tree lists the same page or node more than once');
    visited.add(node);
    const here: TInherited = {
      mediaBox: node.lookup(PDFName.of('MediaBox')) ?? inherited.mediaBox,
      cropBox: node.lookup(PDFName.of('CropBox')) ?? inherited.cropBox,
      rotate: node.lookup(PDFName.of('Rotate')) ?? inherited.rotate,
    };
    const type = node.lookup(PDFName.of('Type'));
    const kids = node.lookup(PDFName.of('Kids'));
    // Writers may leave /Type out of a page, but one that names another type (a catalog the
    // tree points back at, say) is no page at all.
    if (type !== undefined && type !== PDFName.of('Page') && type !== PDFName.of('Pages')) {
      throw corrupt('its page tree holds something that is not a page');
    }
    const isLeaf =
      type === PDFName.of('Page') || (type !== PDFName.of('Pages') && !(kids instanceof PDFArray));
    if (isLeaf) {
      pages.push({ node, ...displayed(here) });
      if (pages.length > maxPages) throw tooManyPages(maxPages);
      continue;
    }
    if (!(kids instanceof PDFArray)) throw corrupt('a node of its page tree has no list of pages');
    // Every pending entry is at least one distinct object we must still visit; bounding them keeps
    // a lying /Kids of a million references from being queued at all.
    if (stack.length + kids.size() > 2 * maxPages + 64) throw tooManyPages(maxPages);
    for (let i = kids.size() - 1; i >= 0; i--) {
      const kid = kids.lookup(i);
      if (!(kid instanceof PDFDict)) throw corrupt('its page tree refers to something that is not a page');
      stack.push({ node: kid, inherited: here });
    }
  }
  return pages;
}

function displayed({ mediaBox, cropBox, rotate }: TInherited): Omit<TPageNode, 'node'> {
  let media = rectOf(mediaBox) ?? LETTER;
  if (media[2] - media[0] <= 0 || media[3] - media[1] <= 0) media = LETTER;
  // The visible area is the CropBox clipped to the MediaBox; an empty clip means a broken
  // CropBox, which viewers ignore.
  const crop = rectOf(cropBox);
  const visible = crop ? intersect(crop, media) : undefined;
  const [x1, y1, x2, y2] = visible ?? media;
  const rotation = rotationOf(rotate);
  const size =
    (rotation / 90) % 2 === 1 ? { width: y2 - y1, height: x2 - x1 } : { width: x2 - x1, height: y2 - y1 };
  return { size, visible: [x1, y1, x2, y2], rotation };
}

function rectOf(value: PDFObject | undefined): TRect | undefined {
  if (!(value instanceof PDFArray) || value.size() !== 4) return undefined;
  const n: number[] = [];
  for (let i = 0; i < 4; i++) {
    const v = value.lookup(i);
    if (!(v instanceof PDFNumber) || !Number.isFinite(v.asNumber())) return undefined;
    n.push(v.asNumber());
  }
  const [ax, ay, bx, by] = n as [number, number, number, number];
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}

function intersect(a: TRect, b: TRect): TRect | undefined {
  const r: TRect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] > r[0] && r[3] > r[1] ? r : undefined;
}

/** 0, 90, 180 or 270; anything that is not a multiple of 90 is ignored, as pdf.js does. */
function rotationOf(value: PDFObject | undefined): number {
  const degrees = value instanceof PDFNumber ? value.asNumber() : 0;
  if (!Number.isInteger(degrees) || degrees % 90 !== 0) return 0;
  return ((degrees % 360) + 360) % 360;
}
