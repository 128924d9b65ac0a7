// Makes room for a file the service attaches to a document it renders: any file of the same name
// the original carried is dropped (so a sender cannot plant a look-alike of the service's own),
// and a catalog /AF or /Names entry of the wrong type is set aside rather than breaking the job.
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRef,
  PDFString,
} from 'pdf-lib';

const textOf = (o: PDFObject | undefined) =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;

export function clearAttachmentName(doc: PDFDocument, name: string): void {
  const { catalog, context } = doc;
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? context.lookup(o) : o);
  const named = (spec: PDFObject | undefined) => {
    const d = resolve(spec);
    return (
      d instanceof PDFDict &&
      (textOf(resolve(d.get(PDFName.of('UF')))) === name || textOf(resolve(d.get(PDFName.of('F')))) === name)
    );
  };
  const af = resolve(catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) {
    const kept = af.asArray().filter((o) => !named(o));
    catalog.set(PDFName.of('AF'), context.obj(kept));
  } else if (catalog.has(PDFName.of('AF'))) catalog.delete(PDFName.of('AF'));
  const names = resolve(catalog.get(PDFName.of('Names')));
  if (!(names instanceof PDFDict)) {
    if (catalog.has(PDFName.of('Names'))) catalog.delete(PDFName.of('Names'));
    return;
  }
  const tree = resolve(names.get(PDFName.of('EmbeddedFiles')));
  if (!(tree instanceof PDFDict)) {
    if (names.has(PDFName.of('EmbeddedFiles'))) names.delete(PDFName.of('EmbeddedFiles'));
    return;
  }
  // The original's embedded files, flattened into one leaf without the name: the order and the
  // other files stay; a tree with kids or loops is read once, to a bounded depth.
  const pairs: PDFObject[] = [];
  const seen = new Set<PDFObject>();
  const walk = (node: PDFObject | undefined, depth: number) => {
    const n = resolve(node);
    if (!(n instanceof PDFDict) || depth > 32 || seen.has(n)) return;
    seen.add(n);
    const leaf = resolve(n.get(PDFName.of('Names')));
    if (leaf instanceof PDFArray) {
      for (let i = 0; i + 1 < leaf.size(); i += 2) {
        if (!named(leaf.get(i + 1))) pairs.push(leaf.get(i), leaf.get(i + 1));
      }
    }
    const kids = resolve(n.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) for (const k of kids.asArray()) walk(k, depth + 1);
  };
  walk(tree, 0);
  names.set(PDFName.of('EmbeddedFiles'), context.obj({ Names: pairs }));
}
