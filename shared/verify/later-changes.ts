// What an incremental update after the last signature changed. PAdES B-LT adds revocation data
// (a DSS) after the signature without signing it again, and that is allowed: it cannot change
// what the document shows. So the update is compared object by object with the signed revision:
// it may add only objects the DSS reaches, and change only the catalog, by adding /DSS to it.
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFRef, PDFStream } from 'pdf-lib';

const load = (bytes: Uint8Array) =>
  PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });

/** Every object reachable from `from`, by reference. */
function reachable(doc: PDFDocument, from: PDFObject | undefined): Set<string> {
  const seen = new Set<string>();
  const walk = (o: PDFObject | undefined) => {
    if (o instanceof PDFRef) {
      if (seen.has(o.toString())) return;
      seen.add(o.toString());
      walk(doc.context.lookup(o));
    } else if (o instanceof PDFDict) for (const [, v] of o.entries()) walk(v);
    else if (o instanceof PDFArray) for (const v of o.asArray()) walk(v);
    else if (o instanceof PDFStream) walk(o.dict);
  };
  walk(from);
  return seen;
}

const withoutDss = (catalog: PDFDict) => {
  const copy = catalog.clone();
  copy.delete(PDFName.of('DSS'));
  return copy.toString();
};

/**
 * True when the bytes of `pdf` after `signedEnd` only add a DSS (and what it holds) to the
 * revision the signature covers; false for any other change, or when it cannot be told.
 */
export async function onlyDssAdded(pdf: Uint8Array, signedEnd: number): Promise<boolean> {
  // A signature's byte range can claim anything: one that ends outside the file tells nothing.
  if (!Number.isSafeInteger(signedEnd) || signedEnd <= 0 || signedEnd > pdf.byteLength) return false;
  // An update is a revision of its own: it ends with %%EOF. Anything else after it is not one.
  const tail = Buffer.from(pdf.buffer, pdf.byteOffset + signedEnd, pdf.byteLength - signedEnd).toString(
    'latin1',
  );
  if (!/startxref\s+\d+\s+%%EOF\s*$/.test(tail)) return false;
  try {
    const [before, after] = await Promise.all([load(pdf.subarray(0, signedEnd)), load(pdf)]);
    const catalogRef = after.context.trailerInfo.Root;
    if (!(catalogRef instanceof PDFRef)) return false;
    const dssRef = after.catalog.get(PDFName.of('DSS'));
    if (!dssRef || dssRef.toString() === before.catalog.get(PDFName.of('DSS'))?.toString()) return false;
    const dss = reachable(after, dssRef);
    for (const [ref, obj] of after.context.enumerateIndirectObjects()) {
      const old = before.context.lookup(ref);
      if (!old) {
        // A writer may put the new catalog under a new number: then it is the one compared.
        const newCatalog = ref === catalogRef && obj instanceof PDFDict;
        if (newCatalog ? withoutDss(before.catalog) !== withoutDss(obj) : !dss.has(ref.toString()))
          return false;
      } else if (old.toString() !== obj.toString()) {
        if (ref !== catalogRef || !(old instanceof PDFDict) || !(obj instanceof PDFDict)) return false;
        if (withoutDss(old) !== withoutDss(obj)) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}
