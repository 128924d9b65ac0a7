// What of an original does not belong in a final document, removed before it is drawn on and
// sealed: the original's signatures (another signer's, or Adobe's usage rights, /Perms /UR3,
// which readers check against the original's bytes and which our rewrite breaks), document
// JavaScript and actions run on opening or on events (/OpenAction, /AA, JavaScript links), files
// embedded in it (ours is attached afterwards) and XFA forms (a second form a reader may show
// instead of the flattened one). Each would make the sealed file say something it is not: a
// broken signature beside the seal, a script changing what is shown, content the seal's
// audit page does not describe. What was removed is said in the evidence record.
//
// Taking the references away is not enough: pdf-lib writes every object it holds, reachable or
// not, and a verifier that looks at every object still finds an orphaned signature dictionary.
// `dropUnreachable` keeps only what the trailer reaches, so the saved file holds none of it.
import {
  PDFArray,
  type PDFContext,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFObject,
  type PDFPage,
  PDFRef,
  PDFStream,
} from 'pdf-lib';

/** What the final document does not keep of its original (the evidence record's words). */
export const REMOVED_FROM_ORIGINAL = [
  'signatures',
  'usage_rights',
  'javascript',
  'open_action',
  'additional_actions',
  'embedded_files',
  'xfa',
] as const;
export type TRemovedFromOriginal = (typeof REMOVED_FROM_ORIGINAL)[number];

const MAX_FIELD_DEPTH = 32;
/** Objects visited while looking for signature fields: a form larger than this is not a real one. */
const MAX_FIELDS = 100_000;

const name = (key: string) => PDFName.of(key);

/**
 * Removes from `doc` (an original, before its form is flattened) what the final document must not
 * carry, and answers what was there, in the order of REMOVED_FROM_ORIGINAL.
 */
export function stripOriginal(doc: PDFDocument, pages: PDFPage[]): TRemovedFromOriginal[] {
  const found = new Set<TRemovedFromOriginal>();
  const { catalog } = doc;
  const perms = catalog.lookup(name('Perms'));
  if (perms instanceof PDFDict) {
    if (perms.has(name('UR')) || perms.has(name('UR3'))) found.add('usage_rights');
    if (perms.has(name('DocMDP'))) found.add('signatures');
  }
  if (catalog.has(name('Perms'))) catalog.delete(name('Perms'));
  const form = catalog.lookup(name('AcroForm'));
  if (form instanceof PDFDict) {
    if (form.has(name('XFA'))) {
      found.add('xfa');
      form.delete(name('XFA'));
    }
    if (hasSignatureField(doc, form.lookup(name('Fields')))) found.add('signatures');
    // The form itself goes when it is flattened; its signature values with it (dropUnreachable).
  }
  if (catalog.has(name('OpenAction'))) {
    found.add('open_action');
    catalog.delete(name('OpenAction'));
  }
  if (catalog.has(name('AA'))) {
    found.add('additional_actions');
    catalog.delete(name('AA'));
  }
  const names = catalog.lookup(name('Names'));
  if (names instanceof PDFDict) {
    if (names.has(name('JavaScript'))) {
      found.add('javascript');
      names.delete(name('JavaScript'));
    }
    if (names.has(name('EmbeddedFiles'))) {
      found.add('embedded_files');
      names.delete(name('EmbeddedFiles'));
    }
  }
  if (catalog.has(name('AF'))) {
    found.add('embedded_files');
    catalog.delete(name('AF'));
  }
  for (const page of pages) stripPage(doc, page, found);
  return REMOVED_FROM_ORIGINAL.filter((r) => found.has(r));
}

function stripPage(doc: PDFDocument, page: PDFPage, found: Set<TRemovedFromOriginal>): void {
  if (page.node.has(name('AA'))) {
    found.add('additional_actions');
    page.node.delete(name('AA'));
  }
  const annots = page.node.lookup(name('Annots'));
  if (!(annots instanceof PDFArray)) return;
  const kept: PDFObject[] = [];
  for (const entry of annots.asArray()) {
    const annot = doc.context.lookup(entry);
    if (!(annot instanceof PDFDict)) {
      kept.push(entry);
      continue;
    }
    if (annot.lookup(name('Subtype')) === name('FileAttachment')) {
      found.add('embedded_files');
      continue;
    }
    if (annot.has(name('AA'))) {
      found.add('additional_actions');
      annot.delete(name('AA'));
    }
    const action = annot.lookup(name('A'));
    if (action instanceof PDFDict && action.lookup(name('S')) === name('JavaScript')) {
      found.add('javascript');
      annot.delete(name('A'));
    }
    kept.push(entry);
  }
  if (kept.length !== annots.size()) page.node.set(name('Annots'), doc.context.obj(kept));
}

/** Whether the form's fields hold a signature field (/FT /Sig) with a value. */
function hasSignatureField(doc: PDFDocument, fields: PDFObject | undefined): boolean {
  const seen = new Set<PDFObject>();
  const walk = (list: PDFObject | undefined, depth: number): boolean => {
    const array = list instanceof PDFRef ? doc.context.lookup(list) : list;
    if (!(array instanceof PDFArray) || depth > MAX_FIELD_DEPTH) return false;
    for (const entry of array.asArray()) {
      const field = doc.context.lookup(entry);
      if (!(field instanceof PDFDict) || seen.has(field) || seen.size > MAX_FIELDS) continue;
      seen.add(field);
      if (field.lookup(name('FT')) === name('Sig') && field.has(name('V'))) return true;
      if (walk(field.get(name('Kids')), depth + 1)) return true;
    }
    return false;
  };
  return walk(fields, 0);
}

/**
 * Deletes every object the trailer (catalog, document information, encryption) does not reach,
 * so what was unlinked above is not written. Objects pdf-lib has yet to write (fonts it embeds
 * on saving) are not in the context yet and are untouched.
 */
export function dropUnreachable({ context }: { context: PDFContext }): void {
  const reached = new Set<string>();
  const stack: PDFObject[] = [];
  const { Root, Info, Encrypt } = context.trailerInfo;
  for (const start of [Root, Info, Encrypt]) if (start) stack.push(start);
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next instanceof PDFRef) {
      const tag = next.tag;
      if (reached.has(tag)) continue;
      reached.add(tag);
      const target = context.lookup(next);
      if (target) stack.push(target);
    } else if (next instanceof PDFDict) {
      for (const [, value] of next.entries()) stack.push(value);
    } else if (next instanceof PDFArray) {
      for (const value of next.asArray()) stack.push(value);
    } else if (next instanceof PDFStream) {
      stack.push(next.dict);
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref.tag)) context.delete(ref);
  }
}
