// A PDF's own form fields, read as the fields of this service would place them: each with its
// kind, its box in percent of the page as displayed (the CropBox within the MediaBox, turned by
// /Rotate, as inspect-pdf.ts measures and page-frame.ts draws), its name, whether it is required,
// its maximum length, its choices and its current value. Runs in the untrusted-files worker
// (form-tree.ts bounds the walk; parsePdf bounds what the file's streams expand to).
import { PDFArray, type PDFContext, PDFDict, PDFName, type PDFObject } from 'pdf-lib';
import { formOf, formTree, numberOf, type TTerminalField, textOf } from './form-tree';
import { pagesOf, type TPageNode, type TRect } from './page-tree';
import { parsePdf } from './parse-pdf';
import { corrupt, PdfRejectedError } from './pdf-rejected-error';
import { tooMuchData, UNTRUSTED_PDF_LIMITS } from './untrusted-limits';

export type TFormFieldKind = 'inp' | 'txt' | 'chk' | 'sel' | 'sig';

export interface TFormField {
  /** The fully qualified name, as the form knows it. */
  name: string;
  /** The name the form shows people (/TU), when it has one. */
  title?: string;
  kind: TFormFieldKind;
  /** 1-based. */
  page: number;
  /** Percent of the displayed page, from its top-left corner. */
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  maxLength?: number;
  /** A choice's or a radio group's choices, as the signer reads them. */
  options?: string[];
  /** The value the form holds now: the text, the choice, or "true" for a checked box. */
  value?: string;
}

// Field flags (ISO 32000-1, tables 221, 226, 228, 230).
const READ_ONLY = 1 << 0;
const REQUIRED = 1 << 1;
const MULTILINE = 1 << 12;
const RADIO = 1 << 15;
const PUSHBUTTON = 1 << 16;
// Annotation flags: a hidden widget is no place to fill in.
const HIDDEN = 1 << 1;
const NO_VIEW = 1 << 5;

const OFF = 'Off';

/**
 * The form's fields that a signer could fill, in the order the form lists them. Left out, and so
 * left in the form as they are: push buttons, read-only fields, signature fields already signed,
 * fields of an unknown type, and fields with no visible widget on a page.
 */
export async function readFormFields(bytes: Uint8Array, maxPages: number): Promise<TFormField[]> {
  const context = await parsed(bytes);
  const form = formOf(context);
  if (!form) return [];
  const pages = pageList(context, maxPages);
  const pageOf = widgetPages(context, pages);
  const found: TFormField[] = [];
  for (const field of formTree(context, form).fields) {
    const read = readField(field, pages, pageOf);
    if (read) found.push(read);
  }
  return found;
}

/** The file parsed as pdf-lib parses it, its streams held to the untrusted-file cap. */
export async function parsed(bytes: Uint8Array): Promise<PDFContext> {
  try {
    return await parsePdf(bytes, {
      maxDecodedBytes: UNTRUSTED_PDF_LIMITS.maxDecodedBytes,
      measure: 'load',
      tooLarge: tooMuchData,
    });
  } catch (err) {
    if (err instanceof PdfRejectedError || (err as Error).name === 'PdfTooComplexError') throw err;
    throw corrupt('it could not be read as a PDF');
  }
}

export function pageList(context: PDFContext, maxPages: number): TPageNode[] {
  const catalog = context.lookup(context.trailerInfo.Root);
  const tree = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('Pages')) : undefined;
  if (!(tree instanceof PDFDict)) throw corrupt('it has no page tree');
  return pagesOf(tree, maxPages);
}

/** Which page (0-based) each widget is on: the page whose /Annots lists it. */
function widgetPages(context: PDFContext, pages: TPageNode[]): Map<PDFDict, number> {
  const on = new Map<PDFDict, number>();
  pages.forEach((page, i) => {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) return;
    for (let j = 0; j < annots.size(); j++) {
      const annot = context.lookup(annots.get(j));
      if (annot instanceof PDFDict && !on.has(annot)) on.set(annot, i);
    }
  });
  return on;
}

function readField(
  field: TTerminalField,
  pages: TPageNode[],
  pageOf: Map<PDFDict, number>,
): TFormField | undefined {
  if (field.flags & READ_ONLY || field.name === '') return undefined;
  const kind = kindOf(field);
  if (!kind) return undefined;
  if (kind === 'sig' && field.value instanceof PDFDict) return undefined;
  const shown = field.widgets.filter((w) => {
    const flags = numberOf(w.lookup(PDFName.of('F'))) ?? 0;
    return !(flags & (HIDDEN | NO_VIEW)) && pageOf.has(w) && rectOf(w.lookup(PDFName.of('Rect')));
  });
  const first = shown[0];
  if (!first) return undefined;
  const pageIndex = pageOf.get(first)!;
  const page = pages[pageIndex]!;
  // A radio group's buttons together make the one box of its choice field.
  const onPage =
    kind === 'sel' && field.type === 'Btn' ? shown.filter((w) => pageOf.get(w) === pageIndex) : [first];
  const rects = onPage.map((w) => rectOf(w.lookup(PDFName.of('Rect')))!);
  const box = percentBox(page, [
    Math.min(...rects.map((r) => r[0])),
    Math.min(...rects.map((r) => r[1])),
    Math.max(...rects.map((r) => r[2])),
    Math.max(...rects.map((r) => r[3])),
  ]);
  if (!box) return undefined;
  const options = kind === 'sel' ? optionsOf(field) : undefined;
  const value = currentValue(field, kind, options);
  return {
    name: field.name,
    ...(field.title ? { title: field.title } : {}),
    kind,
    page: pageIndex + 1,
    ...box,
    required: (field.flags & REQUIRED) !== 0,
    // Only text takes a length (a choice field may inherit one from its parent).
    ...((kind === 'inp' || kind === 'txt') && field.maxLength !== undefined && field.maxLength > 0
      ? { maxLength: Math.floor(field.maxLength) }
      : {}),
    ...(options ? { options: options.map((o) => o.shown) } : {}),
    ...(value !== undefined && value !== '' ? { value } : {}),
  };
}

function kindOf(field: TTerminalField): TFormFieldKind | undefined {
  switch (field.type) {
    case 'Tx':
      return field.flags & MULTILINE ? 'txt' : 'inp';
    case 'Btn':
      if (field.flags & PUSHBUTTON) return undefined;
      return field.flags & RADIO ? 'sel' : 'chk';
    case 'Ch':
      return 'sel';
    case 'Sig':
      return 'sig';
    default:
      return undefined;
  }
}

interface TOption {
  /** What the form stores when it is chosen. */
  stored: string;
  /** What the signer reads. */
  shown: string;
}

/**
 * A choice field's /Opt (each a text, or a pair of the stored and the shown text); a radio
 * group's /Opt, else its buttons' "on" appearance names.
 */
function optionsOf(field: TTerminalField): TOption[] {
  const seen = new Set<string>();
  const out: TOption[] = [];
  const add = (stored: string | undefined, shown = stored) => {
    if (stored === undefined || shown === undefined || shown.trim() === '' || seen.has(shown)) return;
    seen.add(shown);
    out.push({ stored, shown: shown.trim() });
  };
  const opt = field.options;
  if (field.type === 'Ch') {
    for (let i = 0; opt && i < opt.size(); i++) {
      const o = opt.lookup(i);
      if (o instanceof PDFArray) add(textOf(o.lookup(0)), textOf(o.lookup(1)));
      else add(textOf(o));
    }
    return out;
  }
  field.widgets.forEach((w, i) => {
    const state = onState(w);
    // With /Opt, the buttons' states are indexes into it ("0", "1", …) or names beside it.
    const labelled = opt ? textOf(opt.lookup(i)) : undefined;
    add(state, labelled ?? state);
  });
  return out;
}

/** A check box's or radio button's "on" appearance state: its /AP /N key other than Off. */
function onState(widget: PDFDict): string | undefined {
  const ap = widget.lookup(PDFName.of('AP'));
  const normal = ap instanceof PDFDict ? ap.lookup(PDFName.of('N')) : undefined;
  if (!(normal instanceof PDFDict) || normal.has(PDFName.of('Length'))) return undefined;
  return normal
    .keys()
    .map((k) => k.decodeText())
    .find((k) => k !== OFF);
}

function currentValue(field: TTerminalField, kind: TFormFieldKind, options?: TOption[]): string | undefined {
  const v: PDFObject | undefined = field.value;
  if (kind === 'sig') return undefined;
  if (kind === 'chk') {
    const state = textOf(v);
    return state !== undefined && state !== OFF && state !== '' ? 'true' : undefined;
  }
  const first = v instanceof PDFArray ? textOf(v.lookup(0)) : textOf(v);
  if (first === undefined) return undefined;
  if (kind === 'sel') return options?.find((o) => o.stored === first || o.shown === first)?.shown;
  return first;
}

function rectOf(value: PDFObject | undefined): TRect | undefined {
  if (!(value instanceof PDFArray) || value.size() !== 4) return undefined;
  const n = [0, 1, 2, 3].map((i) => numberOf(value.lookup(i)));
  if (n.some((x) => x === undefined)) return undefined;
  const [a, b, c, d] = n as TRect;
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/**
 * A rectangle of the page's user space as a box on the page as displayed: percent of its width
 * and height from the top-left corner, cut to the page. Undefined when nothing of it is shown.
 */
export function percentBox(
  page: Pick<TPageNode, 'visible' | 'rotation'>,
  [ux1, uy1, ux2, uy2]: TRect,
): { x: number; y: number; w: number; h: number } | undefined {
  const [x1, y1, x2, y2] = page.visible;
  const w = x2 - x1;
  const h = y2 - y1;
  // Each turn clockwise: where the rectangle's edges are, measured from the displayed page's
  // left and top, and the displayed width and height (page-frame.ts draws with the same turns).
  let left: number, right: number, top: number, bottom: number, width: number, height: number;
  switch (page.rotation) {
    case 90:
      [left, right, top, bottom, width, height] = [uy1 - y1, uy2 - y1, ux1 - x1, ux2 - x1, h, w];
      break;
    case 180:
      [left, right, top, bottom, width, height] = [x2 - ux2, x2 - ux1, uy1 - y1, uy2 - y1, w, h];
      break;
    case 270:
      [left, right, top, bottom, width, height] = [y2 - uy2, y2 - uy1, x2 - ux2, x2 - ux1, h, w];
      break;
    default:
      [left, right, top, bottom, width, height] = [ux1 - x1, ux2 - x1, y2 - uy2, y2 - uy1, w, h];
  }
  const px = (v: number, of: number) => Math.min(100, Math.max(0, (v / of) * 100));
  const x = round(px(left, width));
  const y = round(px(top, height));
  const bw = round(px(right, width) - x);
  const bh = round(px(bottom, height) - y);
  return bw > 0 && bh > 0 ? { x, y, w: bw, h: bh } : undefined;
}

// Hundredths of a percent, as text tags are placed: under a tenth of a point on A4 or Letter.
const round = (percent: number) => Math.round(percent * 100) / 100;
