// The Document Security Store (ISO 32000-2, 12.8.4.3; ETSI EN 319 142-1 5.4.2): the certificates
// and revocation data that show a file's signatures valid when they were made, kept inside the
// file so it can be validated after the CA, its responder and this service are gone. Appended as
// an incremental update, so the signatures before it stay intact; one that exists already is
// extended, not replaced.
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, type PDFObject, PDFRef } from 'pdf-lib';
import type { TValidationData } from '#shared/domain/ports/evidence';
import { openIncrementalUpdate, type TIncrementalUpdate } from './incremental-update';

export interface TSignatureValidation {
  /** The signature's /Contents as stored (hex-decoded, zero padding included): its VRI entry's key. */
  contents: Buffer;
  data: TValidationData;
}

/**
 * The VRI key of a signature: upper-case hex SHA-1 of its whole /Contents value, the zeros that
 * pad its reserved space included, as ETSI EN 319 142-1 and the validators that look it up (EU
 * DSS, iText) compute it; a key over the CMS alone is one no validator finds.
 */
export const vriKey = (contents: Buffer) => createHash('sha1').update(contents).digest('hex').toUpperCase();

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** `pdf` with the validation data of each signature added to its DSS. */
export function addDss(pdf: Buffer, validations: TSignatureValidation[]): Buffer {
  const update = openIncrementalUpdate(pdf);
  if (!update) throw new Error('The sealed file has no classic cross-reference table to extend');
  const { context, catalog, resolve } = update;
  const existing = resolve(catalog.get(PDFName.of('DSS')));
  const dss = existing instanceof PDFDict ? existing : context.obj({});
  const streams = {
    Certs: new Map<string, PDFRef>(),
    OCSPs: new Map<string, PDFRef>(),
    CRLs: new Map<string, PDFRef>(),
  };
  const arrays = {} as Record<keyof typeof streams, PDFArray>;
  for (const key of Object.keys(streams) as (keyof typeof streams)[]) {
    const array = resolve(dss.get(PDFName.of(key)));
    arrays[key] = array instanceof PDFArray ? array : context.obj([]);
    dss.set(PDFName.of(key), arrays[key]);
  }
  /** Each distinct item once in the file, as a compressed stream listed in the DSS. */
  const refOf = (key: keyof typeof streams, bytes: Buffer): PDFRef => {
    const id = sha(bytes);
    let ref = streams[key].get(id);
    if (!ref) {
      ref = update.newRef();
      update.put(ref, context.flateStream(bytes));
      streams[key].set(id, ref);
      arrays[key].push(ref);
    }
    return ref;
  };
  const vriEntry = resolve(dss.get(PDFName.of('VRI')));
  const vri = vriEntry instanceof PDFDict ? vriEntry : context.obj({});
  for (const { contents, data } of validations) {
    vri.set(
      PDFName.of(vriKey(contents)),
      context.obj({
        Cert: data.certificates.map((c) => refOf('Certs', c)),
        OCSP: data.ocsps.map((o) => refOf('OCSPs', o)),
        CRL: data.crls.map((c) => refOf('CRLs', c)),
      }),
    );
  }
  dss.set(PDFName.of('VRI'), vri);
  const dssRef = catalog.get(PDFName.of('DSS'));
  if (dssRef instanceof PDFRef && existing instanceof PDFDict) update.put(dssRef, dss);
  else {
    const ref = update.newRef();
    update.put(ref, dss);
    catalog.set(PDFName.of('DSS'), ref);
  }
  declareEsic(update);
  update.put(update.rootRef, catalog);
  return update.write().bytes;
}

/**
 * PDF 1.7 files declare the DSS with the ETSI extension (ESIC, extension level 5), as PAdES asks
 * of files that are not PDF 2.0.
 */
function declareEsic({ context, catalog, resolve }: TIncrementalUpdate) {
  const entry: PDFObject | undefined = resolve(catalog.get(PDFName.of('Extensions')));
  const extensions = entry instanceof PDFDict ? entry : context.obj({});
  if (!extensions.has(PDFName.of('ESIC'))) {
    extensions.set(PDFName.of('ESIC'), context.obj({ BaseVersion: PDFName.of('1.7'), ExtensionLevel: 5 }));
  }
  catalog.set(PDFName.of('Extensions'), extensions);
}
