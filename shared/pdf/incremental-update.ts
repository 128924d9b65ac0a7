// An incremental update of a PDF (ISO 32000-1, 7.5.6): the file's bytes stay as they are and the
// changed or new objects follow them, with a cross-reference section and a trailer whose /Prev
// points at the previous one. It is how a signed file takes more without breaking what is signed:
// the seal's field (seal-placeholder.ts), then the validation data and the archive timestamp
// (ltv.ts). Only the objects changed are read, found through the classic cross-reference table
// that this service's files have, so the cost does not grow with the document beyond one copy.
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
} from 'pdf-lib';

interface TXref {
  /** Object number → offset and generation of its latest version. */
  entries: Map<number, { offset: number; generation: number }>;
  trailer: PDFDict;
  offset: number;
}

export type TObjectOffsets = Map<number, { offset: number; generation: number }>;

export interface TIncrementalUpdate {
  /** Where new objects are made (pdf-lib's), not the file's own. */
  context: PDFContext;
  rootRef: PDFRef;
  /** The catalog as the file has it now; change it and `put(rootRef, catalog)` to update it. */
  catalog: PDFDict;
  read(ref: PDFRef): PDFObject | undefined;
  /** A reference read; anything else as it is. */
  resolve(object: PDFObject | undefined): PDFObject | undefined;
  /** A new object number, after every one the file uses. */
  newRef(): PDFRef;
  /** Writes `object` (or its ready text) as `ref` in the update. */
  put(ref: PDFRef, object: PDFObject | Buffer): void;
  /** The file with the update appended, and where each object written starts. */
  write(): { bytes: Buffer; offsets: TObjectOffsets };
}

const latin1 = (b: Buffer) => b.toString('latin1');
const MAX_SECTIONS = 64;
const FREE = -1;

/**
 * An update of `pdf`, or undefined when its cross-references are not a classic table (a
 * cross-reference stream, or a hybrid file) or its catalog cannot be read.
 */
export function openIncrementalUpdate(pdf: Buffer): TIncrementalUpdate | undefined {
  const xref = readXref(pdf);
  if (!xref) return undefined;
  const context = PDFContext.create();
  const read = (ref: PDFRef): PDFObject | undefined => {
    const entry = xref.entries.get(ref.objectNumber);
    return entry ? readObject(pdf, entry.offset, ref.objectNumber, context) : undefined;
  };
  const rootRef = xref.trailer.get(PDFName.of('Root'));
  const catalog = rootRef instanceof PDFRef ? read(rootRef) : undefined;
  if (!(rootRef instanceof PDFRef) || !(catalog instanceof PDFDict)) return undefined;
  const size = (xref.trailer.get(PDFName.of('Size')) as PDFNumber | undefined)?.asNumber() ?? 0;
  let next = size;
  for (const n of xref.entries.keys()) next = Math.max(next, n + 1);
  const written = new Map<number, Buffer>();
  return {
    context,
    rootRef,
    catalog,
    read,
    resolve: (o) => (o instanceof PDFRef ? read(o) : o),
    newRef: () => PDFRef.of(next++),
    put(ref, object) {
      written.set(ref.objectNumber, Buffer.isBuffer(object) ? object : serialize(object));
    },
    write: () => appendUpdate(pdf, xref, written, next, rootRef),
  };
}

function appendUpdate(
  pdf: Buffer,
  xref: TXref,
  written: Map<number, Buffer>,
  size: number,
  rootRef: PDFRef,
): { bytes: Buffer; offsets: TObjectOffsets } {
  const parts: Buffer[] = [pdf];
  let length = pdf.length;
  const add = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  if (pdf[pdf.length - 1] !== 0x0a && pdf[pdf.length - 1] !== 0x0d) add(Buffer.from('\n'));
  const offsets: TObjectOffsets = new Map();
  for (const [number, body] of written) {
    const generation = xref.entries.get(number)?.generation ?? 0;
    offsets.set(number, { offset: length, generation });
    add(Buffer.from(`${number} ${generation} obj\n`, 'latin1'));
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
