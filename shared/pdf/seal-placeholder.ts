// A signature field, added to a PDF as an incremental update (incremental-update.ts): the file's
// bytes stay as they are and a few objects follow them (the signature dictionary with room for
// the CMS or the timestamp token, its widget, the first page and the form that list it). The
// seal is one such field; the archive timestamp of PAdES B-LTA (ltv.ts) is another, whose
// dictionary is a /DocTimeStamp. The /ByteRange is final when this returns (the layout is known
// here); the caller signs or stamps those ranges and writes the result into the /Contents slot
// in place.
//
// Not @signpdf's placeholders and sign(): its plain placeholder finds objects by string search
// and breaks on the dictionaries pdf-lib writes, and its sign() copies the whole file three more
// times to fill in what is known here already.
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFString,
} from 'pdf-lib';
import { openIncrementalUpdate } from './incremental-update';

/** The file with the seal field; /Contents (hex, zeros) runs from `contentsAt` ('<') for `contentsLength` bytes ('<' to '>'). */
export interface TPreparedSeal {
  bytes: Buffer;
  contentsAt: number;
  contentsLength: number;
}

/** A signature (the seal): who, why and when, as the signature dictionary states them. */
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

/** A document timestamp (ETSI.RFC3161): its token names the time; the dictionary states nothing else. */
export interface TDocumentTimestampOptions {
  documentTimestamp: true;
  /** Bytes reserved for the token. */
  signatureLength: number;
}

const MAX_TREE_DEPTH = 64;

/**
 * `pdf` with an empty seal field appended, or undefined when its cross-references are not a
 * classic table (a cross-reference stream, or a hybrid file): the caller then rewrites it once.
 */
export function addSealPlaceholder(
  pdf: Buffer,
  options: TPlaceholderOptions | TDocumentTimestampOptions,
): TPreparedSeal | undefined {
  const update = openIncrementalUpdate(pdf);
  if (!update) return undefined;
  const { context, catalog, rootRef, read, resolve, put } = update;
  const pageRef = firstPage(catalog, resolve);
  const page = pageRef ? read(pageRef) : undefined;
  if (!pageRef || !(page instanceof PDFDict)) return undefined;

  const sigRef = update.newRef();
  const widgetRef = update.newRef();

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
    const formRef = form instanceof PDFDict ? undefined : update.newRef();
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
      T: PDFString.of(
        `${'documentTimestamp' in options ? 'ArchiveTimestamp' : 'Seal'}${fieldList.size() > 1 ? fieldList.size() : ''}`,
      ),
      V: sigRef,
      P: pageRef,
    }),
  );
  const signature = signatureDictionary(options);
  put(sigRef, Buffer.from(signature.text, 'latin1'));

  const { bytes, offsets } = update.write();
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
function signatureDictionary(o: TPlaceholderOptions | TDocumentTimestampOptions): {
  text: string;
  byteRangeAt: number;
  contentsAt: number;
} {
  if ('documentTimestamp' in o) {
    const head = ['<<', '/Type /DocTimeStamp', '/Filter /Adobe.PPKLite', '/SubFilter /ETSI.RFC3161', ''].join(
      '\n',
    );
    const byteRange = `${BYTE_RANGE_SLOT}\n/Contents `;
    return {
      text: `${head}${byteRange}<${'0'.repeat(o.signatureLength * 2)}>\n>>`,
      byteRangeAt: head.length,
      contentsAt: head.length + byteRange.length,
    };
  }
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
