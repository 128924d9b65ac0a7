// A file the service attaches to a document it renders (ISO 32000-2 14.13, associated files): any
// file of the same name the original carried is dropped first (so a sender cannot plant a
// look-alike of the service's own), and a catalog /AF or /Names entry of the wrong type is set
// aside rather than breaking the job. Written here rather than with pdf-lib's attach(), which
// writes the name only as UTF-16 (pdfdetach -savefile then cannot find it) and no checksum.
import { createHash } from 'node:crypto';
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

export interface TOwnAttachment {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  description: string;
  date: Date;
}

/** The attachment, associated with the document as its data (/AF, /AFRelationship /Data). */
export function attachOwnFile(doc: PDFDocument, a: TOwnAttachment): void {
  clearAttachmentName(doc, a.name);
  const { catalog, context } = doc;
  const date = PDFString.fromDate(a.date);
  const stream = context.register(
    context.flateStream(a.bytes, {
      Type: 'EmbeddedFile',
      Subtype: a.mimeType,
      Params: {
        Size: a.bytes.length,
        CheckSum: PDFHexString.of(createHash('md5').update(a.bytes).digest('hex')),
        CreationDate: date,
        ModDate: date,
      },
    }),
  );
  const ascii = /^[\x20-\x7e]*$/.test(a.name);
  const key = () => (ascii ? PDFString.of(a.name) : PDFHexString.fromText(a.name));
  const spec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(a.name),
      UF: key(),
      EF: { F: stream, UF: stream },
      Desc: PDFHexString.fromText(a.description),
      AFRelationship: 'Data',
    }),
  );
  catalog.lookup(PDFName.of('AF'), PDFArray).push(spec);
  const tree = catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict);
  const leaf = tree.lookup(PDFName.of('Names'), PDFArray);
  // A name tree's keys are in order: the new pair goes where its name sorts.
  const pairs: [string, PDFObject, PDFObject][] = [];
  for (let i = 0; i + 1 < leaf.size(); i += 2)
    pairs.push([textOf(leaf.get(i)) ?? '', leaf.get(i), leaf.get(i + 1)]);
  pairs.push([a.name, key(), spec]);
  pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  tree.set(PDFName.of('Names'), context.obj(pairs.flatMap(([, k, v]) => [k, v])));
}

const textOf = (o: PDFObject | undefined) =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;

function clearAttachmentName(doc: PDFDocument, name: string): void {
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
  catalog.set(
    PDFName.of('AF'),
    context.obj(af instanceof PDFArray ? af.asArray().filter((o) => !named(o)) : []),
  );
  let names = resolve(catalog.get(PDFName.of('Names')));
  if (!(names instanceof PDFDict)) {
    names = context.obj({});
    catalog.set(PDFName.of('Names'), names);
  }
  const tree = resolve((names as PDFDict).get(PDFName.of('EmbeddedFiles')));
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
  (names as PDFDict).set(PDFName.of('EmbeddedFiles'), context.obj({ Names: pairs }));
}
