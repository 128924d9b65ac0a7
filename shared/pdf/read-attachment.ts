// Reads a file a PDF carries inside it: an associated file of the document (catalog /AF) or an
// entry of its embedded files (/Names /EmbeddedFiles), by name. For checking a final document's
// evidence record without the service; the file's latest revision is read, as a reader shows it.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from 'pdf-lib';
import { decodeWithin, newDecodeBudget, type TDecodeBudget } from './read-within-limits';

export interface TAttachment {
  name: string;
  bytes: Uint8Array;
  /** The /AFRelationship of its file specification (Data for an evidence record). */
  relationship?: string;
  /** Listed in the catalog's /AF: associated with the document as a whole. */
  associated: boolean;
}

const text = (o: PDFObject | undefined) =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;

/**
 * Every attachment of the document, associated ones and embedded-file entries, each once. The
 * name tree is walked with a visited set (a node may list itself as its own kid, many times over),
 * and what the attachments expand to is held to `budget` (PdfTooComplexError past it).
 */
export async function readAttachments(
  pdf: Uint8Array,
  budget: TDecodeBudget = newDecodeBudget(),
): Promise<TAttachment[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const { catalog, context } = doc;
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? context.lookup(o) : o);
  const specs = new Map<string, { spec: PDFDict; associated: boolean }>();
  const add = (o: PDFObject | undefined, associated: boolean) => {
    const spec = resolve(o);
    if (!(spec instanceof PDFDict)) return;
    const key = o instanceof PDFRef ? o.toString() : `direct-${specs.size}`;
    const known = specs.get(key);
    specs.set(key, { spec, associated: associated || Boolean(known?.associated) });
  };
  const af = resolve(catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) for (const o of af.asArray()) add(o, true);
  const names = resolve(catalog.get(PDFName.of('Names')));
  const tree = names instanceof PDFDict ? resolve(names.get(PDFName.of('EmbeddedFiles'))) : undefined;
  // Depth first with a stack, each node once: neither a cycle nor a deep tree can keep it going.
  const visited = new Set<PDFObject>();
  const pending: (PDFObject | undefined)[] = [tree];
  while (pending.length > 0) {
    const n = resolve(pending.pop());
    if (!(n instanceof PDFDict) || visited.has(n)) continue;
    visited.add(n);
    const leaf = resolve(n.get(PDFName.of('Names')));
    if (leaf instanceof PDFArray) for (let i = 1; i < leaf.size(); i += 2) add(leaf.get(i), false);
    const kids = resolve(n.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) pending.push(...kids.asArray().reverse());
  }
  const out: TAttachment[] = [];
  for (const { spec, associated } of specs.values()) {
    const ef = resolve(spec.get(PDFName.of('EF')));
    const stream =
      ef instanceof PDFDict ? resolve(ef.get(PDFName.of('UF')) ?? ef.get(PDFName.of('F'))) : undefined;
    if (!(stream instanceof PDFRawStream)) continue;
    const relationship = resolve(spec.get(PDFName.of('AFRelationship')));
    out.push({
      name: text(resolve(spec.get(PDFName.of('UF')))) ?? text(resolve(spec.get(PDFName.of('F')))) ?? '',
      bytes: decodeWithin(stream, budget),
      ...(relationship instanceof PDFName ? { relationship: relationship.decodeText() } : {}),
      associated,
    });
  }
  return out;
}
