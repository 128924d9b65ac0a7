// The signature dictionaries and the DSS of a PDF, read by parsing its objects (pdf-lib), not by
// searching its bytes. A signature is what PDF readers take for one: the value (/V) of a field
// of the AcroForm, with a /ByteRange and a /Contents. A dictionary like it that no field refers
// to (an Adobe usage-rights signature left behind, a field deleted since) signs nothing a reader
// shows: it is counted, for the report to mention, and not checked. pdf-lib reads incremental
// updates in order, so each object is the file's latest revision of it.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';
import {
  checkPdfWithinLimits,
  decodeWithin,
  newDecodeBudget,
  type TDecodeBudget,
} from '#shared/pdf/read-within-limits';
import { PdfTooComplexError, tooManySignatures, UNTRUSTED_PDF_LIMITS } from '#shared/pdf/untrusted-limits';

export interface TSignatureDict {
  field: string | null;
  /** /Type: Sig, DocTimeStamp, or none. */
  type: string | null;
  subFilter: string | null;
  byteRange: [number, number, number, number] | null;
  /** /Contents decoded, with the zero padding of its reserved space. */
  contents: Buffer;
  /** /M as ISO time. */
  claimedTime: string | null;
  reason: string | null;
  location: string | null;
  name: string | null;
}

export interface TDssEntries {
  certs: Buffer[];
  ocsps: Buffer[];
  crls: Buffer[];
  vriKeys: string[];
}

export interface TPdfParts {
  signatures: TSignatureDict[];
  /** Signature dictionaries (a /ByteRange and a /Contents) that no form field refers to. */
  unreferenced: number;
  dss: TDssEntries | null;
}

/** The file is not a PDF pdf-lib can read: the verifier cannot say anything about it. */
export class UnreadablePdfError extends Error {
  override name = 'UnreadablePdfError';
}

const text = (o: PDFObject | undefined): string | null =>
  o instanceof PDFString || o instanceof PDFHexString
    ? o.decodeText()
    : o instanceof PDFName
      ? o.decodeText()
      : null;

function date(o: PDFObject | undefined): string | null {
  if (!(o instanceof PDFString || o instanceof PDFHexString)) return null;
  try {
    const d = o.decodeDate();
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  } catch {
    return null;
  }
}

function byteRangeOf(o: PDFObject | undefined): TSignatureDict['byteRange'] {
  if (!(o instanceof PDFArray) || o.size() !== 4) return null;
  const n = o.asArray().map((x) => (x instanceof PDFNumber ? x.asNumber() : Number.NaN));
  return n.every((x) => Number.isInteger(x) && x >= 0) ? (n as [number, number, number, number]) : null;
}

/** The names of the signature fields, by the object number of their value (/V). */
function fieldNames(doc: PDFDocument): Map<string, string> {
  const names = new Map<string, string>();
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const seen = new Set<PDFDict>();
  const walk = (fields: PDFArray | undefined, prefix: string) => {
    for (const ref of fields?.asArray() ?? []) {
      const field = doc.context.lookupMaybe(ref, PDFDict);
      if (!field || seen.has(field)) continue;
      seen.add(field);
      const own = text(field.get(PDFName.of('T')));
      const name = own === null ? prefix : prefix ? `${prefix}.${own}` : own;
      const value = field.get(PDFName.of('V'));
      if (value instanceof PDFRef) names.set(value.toString(), name);
      walk(field.lookupMaybe(PDFName.of('Kids'), PDFArray), name);
    }
  };
  walk(acroForm?.lookupMaybe(PDFName.of('Fields'), PDFArray), '');
  return names;
}

function streamBytes(o: PDFObject | undefined, budget: TDecodeBudget): Buffer | undefined {
  if (o instanceof PDFRawStream) return Buffer.from(decodeWithin(o, budget));
  if (o instanceof PDFStream) return Buffer.from(o.getContents());
  return undefined;
}

function readDss(doc: PDFDocument): TDssEntries | null {
  const dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) return null;
  const budget = newDecodeBudget();
  const streams = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? [])
      .map((ref) => streamBytes(doc.context.lookup(ref), budget))
      .filter((b): b is Buffer => Boolean(b));
  const vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict);
  return {
    certs: streams('Certs'),
    ocsps: streams('OCSPs'),
    crls: streams('CRLs'),
    vriKeys: vri ? vri.keys().map((k) => k.decodeText().toUpperCase()) : [],
  };
}

/**
 * Every signature dictionary of `pdf`, in the order of their signed ranges, and its DSS. Throws
 * PdfTooComplexError for a file past the caps of untrusted files (objects, expanded bytes, signatures).
 */
export async function readPdfParts(pdf: Uint8Array): Promise<TPdfParts> {
  await checkPdfWithinLimits(pdf);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch (err) {
    throw new UnreadablePdfError(`The file is not a readable PDF (${(err as Error).message}).`);
  }
  let parts: TPdfParts;
  try {
    parts = partsOf(doc);
  } catch (err) {
    if (err instanceof PdfTooComplexError) throw err;
    // pdf-lib reads a damaged file as far as it can (throwOnInvalidObject off): a catalog or
    // form it could not make out fails here, and says as little about the file as a parse error.
    throw new UnreadablePdfError(`The file's structure is not readable (${(err as Error).message}).`);
  }
  // Each signature is checked against every later one: past the cap, none is checked.
  if (parts.signatures.length > UNTRUSTED_PDF_LIMITS.maxSignatures)
    throw tooManySignatures(parts.signatures.length);
  return parts;
}

function partsOf(doc: PDFDocument): TPdfParts {
  const names = fieldNames(doc);
  const signatures: TSignatureDict[] = [];
  let unreferenced = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict)) continue;
    const contents = obj.get(PDFName.of('Contents'));
    const range = obj.get(PDFName.of('ByteRange'));
    if (!range || !(contents instanceof PDFHexString || contents instanceof PDFString)) continue;
    if (!names.has(ref.toString())) {
      unreferenced++;
      continue;
    }
    signatures.push({
      field: names.get(ref.toString())!,
      type: text(obj.get(PDFName.of('Type'))),
      subFilter: text(obj.get(PDFName.of('SubFilter'))),
      byteRange: byteRangeOf(obj.lookup(PDFName.of('ByteRange'))),
      contents: Buffer.from(contents.asBytes()),
      claimedTime: date(obj.get(PDFName.of('M'))),
      reason: text(obj.get(PDFName.of('Reason'))),
      location: text(obj.get(PDFName.of('Location'))),
      name: text(obj.get(PDFName.of('Name'))),
    });
  }
  // Each revision's signature covers up to its own end; ordering by it is the order of signing.
  signatures.sort((x, y) => end(x) - end(y));
  return { signatures, unreferenced, dss: readDss(doc) };
}

const end = (s: TSignatureDict) => (s.byteRange ? s.byteRange[2] + s.byteRange[3] : Number.MAX_SAFE_INTEGER);
