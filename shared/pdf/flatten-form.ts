// Flattening the original's form: every widget's appearance becomes part of its page's content,
// the widgets leave the pages, and the catalog's /AcroForm goes, so nothing in the final file
// can be edited. Written here rather than with pdf-lib's form.flatten(), which throws on the
// forms real files carry (a widget without an appearance stream or without a page reference,
// an unknown field type) and regenerates appearances in Helvetica, which cannot show most
// non-Latin values. This one never throws for a single widget: one it cannot draw is dropped,
// and a text value without an appearance is drawn with the document's Unicode font.
import {
  concatTransformationMatrix,
  drawObject,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRef,
  PDFStream,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { drawLine } from './draw-value';
import type { TFontSet } from './fonts';
import { drawable } from './text';

const HIDDEN = 1 << 1;
const NO_VIEW = 1 << 5;
const MAX_PARENT_DEPTH = 32;

/** True when the document had a form and it was flattened. */
export function flattenForm(doc: PDFDocument, pages: PDFPage[], fonts: TFontSet): boolean {
  const catalog = doc.catalog;
  if (!catalog.has(PDFName.of('AcroForm'))) return false;
  for (const page of pages) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    const kept: PDFObject[] = [];
    for (let i = 0; i < annots.size(); i++) {
      const entry = annots.get(i);
      const annot = doc.context.lookup(entry);
      if (!(annot instanceof PDFDict) || annot.lookup(PDFName.of('Subtype')) !== PDFName.of('Widget')) {
        kept.push(entry);
        continue;
      }
      try {
        flattenWidget(doc, page, annot, fonts);
      } catch {
        // A widget that cannot be drawn is dropped like the others: the form must go.
      }
    }
    if (kept.length === annots.size()) continue;
    const replacement = doc.context.obj(kept);
    // The array may be shared with other pages; give this page its own.
    page.node.set(PDFName.of('Annots'), replacement);
  }
  catalog.delete(PDFName.of('AcroForm'));
  return true;
}

function flattenWidget(doc: PDFDocument, page: PDFPage, widget: PDFDict, fonts: TFontSet): void {
  const flags = numberOf(widget.lookup(PDFName.of('F'))) ?? 0;
  if (flags & (HIDDEN | NO_VIEW)) return;
  const rect = rectOf(widget.lookup(PDFName.of('Rect')));
  if (!rect) return;
  const appearance = normalAppearance(doc, widget);
  if (appearance) {
    drawAppearance(doc, page, appearance, rect);
    return;
  }
  // No appearance to copy: a text or choice value is drawn as the viewer would have.
  const value = inherited(widget, 'V');
  const text =
    value instanceof PDFString || value instanceof PDFHexString
      ? value.decodeText()
      : value instanceof PDFArray
        ? value
            .asArray()
            .map((v) => (v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : ''))
            .join(', ')
        : '';
  if (text.trim() === '') return;
  const [x1, y1, x2, y2] = rect;
  drawLine(page, fonts.regular, drawable(fonts.regular, text, fonts.missing), {
    x: x1,
    y: y1,
    width: x2 - x1,
    height: y2 - y1,
  });
}

/** The widget's normal appearance stream: for a state dictionary, the state in /AS. */
function normalAppearance(doc: PDFDocument, widget: PDFDict): PDFRef | undefined {
  const ap = widget.lookup(PDFName.of('AP'));
  if (!(ap instanceof PDFDict)) return undefined;
  let normal = ap.get(PDFName.of('N'));
  const resolved = doc.context.lookup(normal);
  if (resolved instanceof PDFDict && !(resolved instanceof PDFStream)) {
    const state = widget.lookup(PDFName.of('AS'));
    normal = state instanceof PDFName ? resolved.get(state) : undefined;
  }
  if (normal instanceof PDFRef) return doc.context.lookup(normal) instanceof PDFStream ? normal : undefined;
  if (normal instanceof PDFStream) return doc.context.register(normal);
  return undefined;
}

/**
 * Paints the appearance into the widget's rectangle as a viewer does (ISO 32000-1, 12.5.5): the
 * form's BBox, transformed by its Matrix, is mapped onto /Rect.
 */
function drawAppearance(doc: PDFDocument, page: PDFPage, ref: PDFRef, rect: number[]): void {
  const form = doc.context.lookup(ref, PDFStream);
  const bbox = rectOf(form.dict.lookup(PDFName.of('BBox')));
  if (!bbox) return;
  const m = matrixOf(form.dict.lookup(PDFName.of('Matrix')));
  const corners = [
    [bbox[0], bbox[1]],
    [bbox[2], bbox[1]],
    [bbox[0], bbox[3]],
    [bbox[2], bbox[3]],
  ].map(([x, y]) => [m[0] * x! + m[2] * y! + m[4], m[1] * x! + m[3] * y! + m[5]] as const);
  const bx1 = Math.min(...corners.map((c) => c[0]));
  const by1 = Math.min(...corners.map((c) => c[1]));
  const bx2 = Math.max(...corners.map((c) => c[0]));
  const by2 = Math.max(...corners.map((c) => c[1]));
  if (bx2 - bx1 <= 0 || by2 - by1 <= 0) return;
  const [x1, y1, x2, y2] = rect as [number, number, number, number];
  const sx = (x2 - x1) / (bx2 - bx1);
  const sy = (y2 - y1) / (by2 - by1);
  const name = page.node.newXObject('FlatWidget', ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(sx, 0, 0, sy, x1 - bx1 * sx, y1 - by1 * sy),
    drawObject(name),
    popGraphicsState(),
  );
}

/** A field attribute, looked up through /Parent as fields inherit it. */
function inherited(dict: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = dict;
  for (let depth = 0; node && depth < MAX_PARENT_DEPTH; depth++) {
    const value = node.lookup(PDFName.of(key));
    if (value !== undefined) return value;
    const parent: PDFObject | undefined = node.lookup(PDFName.of('Parent'));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return undefined;
}

function numberOf(value: PDFObject | undefined): number | undefined {
  return value instanceof PDFNumber && Number.isFinite(value.asNumber()) ? value.asNumber() : undefined;
}

function rectOf(value: PDFObject | undefined): [number, number, number, number] | undefined {
  if (!(value instanceof PDFArray) || value.size() !== 4) return undefined;
  const n = value.asArray().map((_, i) => numberOf(value.lookup(i)));
  if (n.some((v) => v === undefined)) return undefined;
  const [a, b, c, d] = n as [number, number, number, number];
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

function matrixOf(value: PDFObject | undefined): [number, number, number, number, number, number] {
  if (value instanceof PDFArray && value.size() === 6) {
    const n = value.asArray().map((_, i) => numberOf(value.lookup(i)));
    if (n.every((v) => v !== undefined)) return n as [number, number, number, number, number, number];
  }
  return [1, 0, 0, 1, 0, 0];
}
