// The seal's signature field, added to a PDF as an incremental update: the file's bytes stay as
// they are and a few objects follow them (the signature dictionary with room for the CMS, its
// widget, the first page and the form that list it, a cross-reference section and trailer).
// Only the objects changed are read, found through the classic cross-reference table that
// final-document.ts writes, so the cost does not grow with the document's size beyond one copy.
// The /ByteRange is final when this returns (the layout is known here); seal.ts signs those
// ranges and writes the CMS into the /Contents slot in place.
//
// Not @signpdf's placeholders and sign(): its plain placeholder finds objects by string search
// and breaks on the dictionaries pdf-lib writes, and its sign() copies the whole file three more
// times to fill in what is known here already.
import { randomBytes } from 'node:crypto';
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRef,
  PDFString,
} from 'pdf-lib';

/** The file with the seal field; /Contents (hex, zeros) runs from `contentsAt` ('<') for `contentsLength` bytes ('<' to '>'). */
export interface TPreparedSeal {
  bytes: Buffer;
  contentsAt: number;
  contentsLength: number;
}

export interface TPlaceholderOptions {
  reason: string;
  name: string;
  location?: string;
  contactInfo?: string;
  signingTime: Date;
  /** Bytes reserved for the CMS; the hex string in /Contents is twice as long. */
  signatureLength: number;
  subFilter: string;
}

interface TXref {
  /** Object number → offset and generation of its latest version. */
  entries: Map<number, { offset: number; generation: number }>;
  trailer: PDFDict;
  offset: number;
}

const latin1 = (b: Buffer) => b.toString('latin1');
const MAX_SECTIONS = 64;
const MAX_TREE_DEPTH = 64;
const FREE = -1;

/**
 * `pdf` with an empty seal field appended, or undefined when its cross-references are not a
 * classic table (a cross-reference stream, or a hybrid file): the caller then rewrites it once.
 */
export function addSealPlaceholder(pdf: Buffer, options: TPlaceholderOptions): TPreparedSeal | undefined {
  const xref = readXref(pdf);
  if (!xref) return undefined;
  const context = PDFContext.create();
  const read = (ref: PDFRef): PDFObject | undefined => {
    const entry = xref.entries.get(ref.objectNumber);
    return entry ? readObject(pdf, entry.offset, ref.objectNumber, context) : undefined;
  };
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? read(o) : o);

  const rootRef = xref.trailer.get(PDFName.of('Root'));
  const catalog = rootRef instanceof PDFRef ? read(rootRef) : undefined;
  if (!(rootRef instanceof PDFRef) || !(catalog instanceof PDFDict)) return undefined;
  const pageRef = firstPage(catalog, resolve);
  const page = pageRef ? read(pageRef) : undefined;
  if (!pageRef || !(page instanceof PDFDict)) return undefined;

  const size = (xref.trailer.get(PDFName.of('Size')) as PDFNumber | undefined)?.asNumber() ?? 0;
  let next = size;
  for (const n of xref.entries.keys()) next = Math.max(next, n + 1);
  const sigRef = PDFRef.of(next++);
  const widgetRef = PDFRef.of(next++);
  const written = new Map<PDFRef, Buffer>();
  const put = (ref: PDFRef, object: PDFObject) => written.set(ref, serialize(object));

  // The form: existing (indirect or in the catalog) gets the field added; else a new one.
  const formEntry = catalog.get(PDFName.of('AcroForm'));
  const form = resolve(formEntry);
  const formDict = form instanceof PDFDict ? form : context.obj({});
  const fields = resolve(formDict.get(PDFName.of('Fields')));
  const fieldList = fields instanceof PDFArray ? fields : context.obj([]);
  fieldList.push(widgetRef);
  const fieldsEntry = formDict.get(PDFName.of('Fields'));
  if (fieldsEntry instanceof PDFRef) put(fieldsEntry, fieldList);
  else formDict.set(PDFName.of('Fields'), fieldList);
  formDict.set(PDFName.of('SigFlags'), PDFNumber.of(3)); // signatures exist, append only
  if (formEntry instanceof PDFRef && form instanceof PDFDict) put(formEntry, formDict);
  else {
    const formRef = form instanceof PDFDict ? undefined : PDFRef.of(next++);
    if (formRef) {
      put(formRef, formDict);
      catalog.set(PDFName.of('AcroForm'), formRef);
    }
    put(rootRef, catalog);
  }

  // The first page lists the widget among its annotations.
  const annotsEntry = page.get(PDFName.of('Annots'));
  const annots = resolve(annotsEntry);
  const annotList = annots instanceof PDFArray ? annots : context.obj([]);
  annotList.push(widgetRef);
  if (annotsEntry instanceof PDFRef && annots instanceof PDFArray) put(annotsEntry, annotList);
  else {
    page.set(PDFName.of('Annots'), annotList);
    put(pageRef, page);
  }

  put(
    widgetRef,
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      F: 132, // print, locked
      T: PDFString.of(`Seal${fieldList.size() > 1 ? fieldList.size() : ''}`),
      V: sigRef,
      P: pageRef,
    }),
  );
  const signature = signatureDictionary(options);
  written.set(sigRef, Buffer.from(signature.text, 'latin1'));

  const { bytes, offsets } = appendUpdate(pdf, xref, written, next, rootRef);
  // Where the signature dictionary's body starts: after its `n g obj\n` line.
  const body = offsets.get(sigRef.objectNumber)!.offset + `${sigRef.objectNumber} 0 obj\n`.length;
  const contentsAt = body + signature.contentsAt;
  const contentsLength = options.signatureLength * 2 + 2;
  const afterContents = contentsAt + contentsLength;
  const range = `/ByteRange [0 ${contentsAt} ${afterContents} ${bytes.length - afterContents}`;
  bytes.write(range.padEnd(BYTE_RANGE_SLOT.length - 1, ' '), body + signature.byteRangeAt, 'latin1');
  return { bytes, contentsAt, contentsLength };
}

// Wide enough for three 10-digit numbers; what is not used stays spaces before the ']'.
const BYTE_RANGE_SLOT = `/ByteRange [0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;

/** The dictionary's text, and where its /ByteRange slot and its /Contents '<' are in it. */
function signatureDictionary(o: TPlaceholderOptions): {
  text: string;
  byteRangeAt: number;
  contentsAt: number;
} {
  const text = (s: string) => PDFHexString.fromText(s).toString();
  const head = ['<<', '/Type /Sig', '/Filter /Adobe.PPKLite', `/SubFilter /${o.subFilter}`, ''].join('\n');
  const byteRange = `${BYTE_RANGE_SLOT}\n/Contents `;
  const lines = [
    `<${'0'.repeat(o.signatureLength * 2)}>`,
    `/M ${PDFString.fromDate(o.signingTime).toString()}`,
    `/Name ${text(o.name)}`,
    `/Reason ${text(o.reason)}`,
    ...(o.location ? [`/Location ${text(o.location)}`] : []),
    ...(o.contactInfo ? [`/ContactInfo ${text(o.contactInfo)}`] : []),
    '/Prop_Build << /Filter << /Name /Adobe.PPKLite >> /App << /Name /open-esign >> >>',
    '>>',
  ];
  return {
    text: head + byteRange + lines.join('\n'),
    byteRangeAt: head.length,
    contentsAt: head.length + byteRange.length,
  };
}

function appendUpdate(
  pdf: Buffer,
  xref: TXref,
  written: Map<PDFRef, Buffer>,
  size: number,
  rootRef: PDFRef,
): { bytes: Buffer; offsets: Map<number, { offset: number; generation: number }> } {
  const parts: Buffer[] = [pdf];
  let length = pdf.length;
  const add = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  if (pdf[pdf.length - 1] !== 0x0a && pdf[pdf.length - 1] !== 0x0d) add(Buffer.from('\n'));
  const offsets = new Map<number, { offset: number; generation: number }>();
  for (const [ref, body] of written) {
    const generation = xref.entries.get(ref.objectNumber)?.generation ?? 0;
    offsets.set(ref.objectNumber, { offset: length, generation });
    add(Buffer.from(`${ref.objectNumber} ${generation} obj\n`, 'latin1'));
    add(body);
    add(Buffer.from('\nendobj\n', 'latin1'));
  }
  const xrefOffset = length;
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  let table = 'xref\n';
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    table += `${numbers[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) {
      const { offset, generation } = offsets.get(numbers[k]!)!;
      table += `${String(offset).padStart(10, '0')} ${String(generation).padStart(5, '0')} n\r\n`;
    }
    i = j + 1;
  }
  const trailer = PDFContext.create().obj({});
  trailer.set(PDFName.of('Size'), PDFNumber.of(size));
  trailer.set(PDFName.of('Root'), rootRef);
  const info = xref.trailer.get(PDFName.of('Info'));
  if (info instanceof PDFRef) trailer.set(PDFName.of('Info'), info);
  // The file's permanent identifier stays; the second, of this version, is new.
  const id = xref.trailer.get(PDFName.of('ID'));
  const first = id instanceof PDFArray && id.size() === 2 ? id.get(0) : undefined;
  const fresh = PDFHexString.of(randomBytes(16).toString('hex'));
  trailer.set(PDFName.of('ID'), PDFContext.create().obj([first ?? fresh, fresh]));
  trailer.set(PDFName.of('Prev'), PDFNumber.of(xref.offset));
  add(Buffer.from(`${table}trailer\n`, 'latin1'));
  add(serialize(trailer));
  add(Buffer.from(`\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'));
  return { bytes: Buffer.concat(parts, length), offsets };
}

function serialize(object: PDFObject): Buffer {
  const bytes = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

/** The first leaf of the page tree. */
function firstPage(
  catalog: PDFDict,
  resolve: (o: PDFObject | undefined) => PDFObject | undefined,
): PDFRef | undefined {
  let ref = catalog.get(PDFName.of('Pages'));
  for (let depth = 0; depth < MAX_TREE_DEPTH && ref instanceof PDFRef; depth++) {
    const node = resolve(ref);
    if (!(node instanceof PDFDict)) return undefined;
    const kids = resolve(node.get(PDFName.of('Kids')));
    if (node.get(PDFName.of('Type')) === PDFName.of('Page') || !(kids instanceof PDFArray)) return ref;
    ref = kids.get(0);
  }
  return undefined;
}

// ---- reading the cross-reference table ----

function readXref(pdf: Buffer): TXref | undefined {
  const tail = latin1(pdf.subarray(Math.max(0, pdf.length - 1024)));
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) return undefined;
  const offset = Number(m[1]);
  const entries = new Map<number, { offset: number; generation: number }>();
  let trailer: PDFDict | undefined;
  const seen = new Set<number>();
  for (let at: number | undefined = offset; at !== undefined; ) {
    if (seen.has(at) || seen.size >= MAX_SECTIONS) return undefined;
    seen.add(at);
    const section = readSection(pdf, at);
    if (!section || section.trailer.has(PDFName.of('XRefStm'))) return undefined;
    trailer ??= section.trailer;
    // The newest section that names an object decides it, a free entry included.
    for (const [n, e] of section.entries) if (!entries.has(n)) entries.set(n, e);
    const prev = section.trailer.get(PDFName.of('Prev'));
    at = prev instanceof PDFNumber ? prev.asNumber() : undefined;
  }
  for (const [n, e] of entries) if (e.offset === FREE) entries.delete(n);
  return trailer ? { entries, trailer, offset } : undefined;
}

function readSection(
  pdf: Buffer,
  at: number,
): { entries: Map<number, { offset: number; generation: number }>; trailer: PDFDict } | undefined {
  const head = latin1(pdf.subarray(at, at + 32));
  if (!/^\s*xref\b/.test(head)) return undefined;
  const trailerAt = pdf.indexOf('trailer', at, 'latin1');
  if (trailerAt < 0) return undefined;
  const tokens = latin1(pdf.subarray(at, trailerAt)).trim().split(/\s+/).slice(1);
  // Free entries too (offset FREE): they override an older section's entry for the object.
  const entries = new Map<number, { offset: number; generation: number }>();
  for (let i = 0; i < tokens.length; ) {
    const start = Number(tokens[i]);
    const count = Number(tokens[i + 1]);
    if (!Number.isInteger(start) || !Number.isInteger(count)) return undefined;
    i += 2;
    for (let k = 0; k < count; k++, i += 3) {
      const [offset, generation, kind] = [Number(tokens[i]), Number(tokens[i + 1]), tokens[i + 2]];
      if (kind !== 'n' && kind !== 'f') return undefined;
      if (!entries.has(start + k))
        entries.set(start + k, { offset: kind === 'n' ? offset : FREE, generation });
    }
  }
  const parsed = PDFObjectParser.forBytes(
    pdf.subarray(trailerAt + 'trailer'.length),
    PDFContext.create(),
  ).parseObject();
  if (!(parsed instanceof PDFDict)) return undefined;
  return { entries, trailer: parsed };
}

function readObject(pdf: Buffer, offset: number, number: number, context: PDFContext): PDFObject | undefined {
  const head = /^\s*(\d+)\s+(\d+)\s+obj/.exec(latin1(pdf.subarray(offset, offset + 40)));
  if (!head || Number(head[1]) !== number) return undefined;
  try {
    return PDFObjectParser.forBytes(pdf.subarray(offset + head[0].length), context).parseObject();
  } catch {
    return undefined;
  }
}
