// Taking out of a document the form fields that became the service's own fields: their widgets
// leave the pages and the fields leave the form, so that neither the signing page nor the final
// document shows the form's box (or its old value) under the field drawn in its place. Fields
// left as they were stay in the form, which the final document flattens as any other; the XFA
// form, a second description of the whole form that no longer matches it, goes. Runs in the
// untrusted-files worker, on the walk of form-tree.ts.
import { PDFArray, type PDFContext, PDFDict, PDFName, PDFWriter } from 'pdf-lib';
import { formOf, formTree } from './form-tree';
import { pageList, parsed } from './read-form-fields';
import { dropUnreachable } from './strip-original';

const OBJECTS_PER_TICK = 10_000;

export async function removeFormFields(
  bytes: Uint8Array,
  names: string[],
  maxPages: number,
): Promise<Uint8Array> {
  if (names.length === 0) return bytes;
  const context = await parsed(bytes);
  const form = formOf(context);
  if (!form) return bytes;
  const tree = formTree(context, form);
  const wanted = new Set(names);
  const widgets = new Set<PDFDict>();
  for (const field of tree.fields) {
    if (!wanted.has(field.name)) continue;
    for (const w of field.widgets) widgets.add(w);
    without(context, field.listedIn, new Set([field.dict]));
  }
  for (const page of pageList(context, maxPages)) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    // The page gets its own array: it may be shared with other pages.
    if (annots instanceof PDFArray)
      page.node.set(PDFName.of('Annots'), copyWithout(context, annots, widgets));
  }
  // A group whose fields all went goes too; the deepest come last in `groups`.
  for (const group of [...tree.groups].reverse()) {
    const kids = group.dict.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray && kids.size() === 0)
      without(context, group.listedIn, new Set([group.dict]));
  }
  form.delete(PDFName.of('XFA'));
  const fields = form.lookup(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray) || fields.size() === 0) {
    const catalog = context.lookup(context.trailerInfo.Root, PDFDict);
    catalog.delete(PDFName.of('AcroForm'));
  }
  dropUnreachable({ context });
  return PDFWriter.forContext(context, OBJECTS_PER_TICK).serializeToBuffer();
}

/** Takes out of `list`, in place, the entries that are (or refer to) one of `dicts`. */
function without(context: PDFContext, list: PDFArray, dicts: Set<PDFDict>): void {
  for (let i = list.size() - 1; i >= 0; i--) {
    const entry = context.lookup(list.get(i));
    if (entry instanceof PDFDict && dicts.has(entry)) list.remove(i);
  }
}

function copyWithout(context: PDFContext, list: PDFArray, dicts: Set<PDFDict>): PDFArray {
  const kept = list.asArray().filter((entry) => {
    const dict = context.lookup(entry);
    return !(dict instanceof PDFDict && dicts.has(dict));
  });
  return context.obj(kept);
}
