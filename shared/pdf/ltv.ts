// PAdES baseline B-LT and B-LTA on a sealed file (ETSI EN 319 142-1): after the seal (B-T), an
// incremental update adds the DSS with the certificates and revocation data of the seal's and
// the timestamp authority's chains (B-LT), then a document timestamp (SubFilter ETSI.RFC3161)
// covers the whole file, DSS included (B-LTA). Anyone can then validate the seal as it was when
// it was made, and renew the archive timestamp before its algorithms weaken, without us.
import { createHash } from 'node:crypto';
import type { TValidationData, TValidationDataCollector } from '#shared/domain/ports/evidence';
import type { TStampSignature } from './cms';
import { addDss } from './dss';
import { addSealPlaceholder } from './seal-placeholder';

/** Bytes reserved for the archive timestamp token (public authorities send chains of a few KB). */
const DOCUMENT_TIMESTAMP_LENGTH = 16384;

export interface TLongTermDeps {
  validation: TValidationDataCollector;
  /** Timestamps a SHA-256 digest: the authority's DER token, checked. */
  stamp: TStampSignature;
}

/** The file's last signature's /Contents as stored: hex-decoded, the zeros that pad its slot included. */
export function lastSignatureContents(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const at = text.lastIndexOf('/ByteRange');
  const m = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at, at + 120));
  if (at < 0 || !m) throw new Error('The file carries no signature to extend');
  const [a, b, c] = m.slice(1).map(Number) as [number, number, number];
  return Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
}

/** The DER of the file's last signature's /Contents, without the zeros that pad its slot. */
export function lastSignatureDer(pdf: Buffer): Buffer {
  const der = lastSignatureContents(pdf);
  // The outer SEQUENCE's length says where the DER ends.
  if (der[0] !== 0x30) throw new Error('The last signature is not DER');
  const first = der[1]!;
  const lengthBytes = first & 0x80 ? first & 0x7f : 0;
  let length = first & 0x80 ? 0 : first;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + der[2 + i]!;
  return der.subarray(0, 2 + lengthBytes + length);
}

/** Whether `data` holds every certificate of `needed`. */
const covers = (data: TValidationData, needed: TValidationData) =>
  needed.certificates.every((c) => data.certificates.some((d) => d.equals(c)));

const union = (a: TValidationData, b: TValidationData): TValidationData => {
  const add = (xs: Buffer[], ys: Buffer[]) => [...xs, ...ys.filter((y) => !xs.some((x) => x.equals(y)))];
  return {
    certificates: add(a.certificates, b.certificates),
    ocsps: add(a.ocsps, b.ocsps),
    crls: add(a.crls, b.crls),
  };
};

/** Appends the archive timestamp to `pdf`: a /DocTimeStamp field whose token covers every byte around it. */
export async function addDocumentTimestamp(
  pdf: Buffer,
  stamp: TStampSignature,
): Promise<{ bytes: Buffer; token: Buffer }> {
  const prepared = addSealPlaceholder(pdf, {
    documentTimestamp: true,
    signatureLength: DOCUMENT_TIMESTAMP_LENGTH,
  });
  if (!prepared) throw new Error('The sealed file has no classic cross-reference table to extend');
  const { bytes, contentsAt, contentsLength } = prepared;
  const digest = createHash('sha256')
    .update(bytes.subarray(0, contentsAt))
    .update(bytes.subarray(contentsAt + contentsLength))
    .digest();
  const token = await stamp(digest);
  if (token.length * 2 > contentsLength - 2)
    throw new Error('The archive timestamp does not fit its reserved space');
  bytes.write(token.toString('hex'), contentsAt + 1, 'latin1');
  return { bytes, token };
}

/**
 * `sealed` (the seal its last signature) extended to B-LTA. The DSS also carries the validation
 * data of the archive timestamp's authority: when the token comes from an authority whose chain
 * the seal's data does not hold (another of the configured ones answered), that data is added and
 * the archive timestamp made again, so the file needs nothing from outside to validate it.
 */
export async function addLongTermValidation(sealed: Buffer, deps: TLongTermDeps): Promise<Buffer> {
  const seal = lastSignatureDer(sealed);
  const contents = lastSignatureContents(sealed);
  let data = await deps.validation.collect(seal);
  for (let attempt = 0; ; attempt++) {
    const withDss = addDss(sealed, [{ contents, data }]);
    const stamped = await addDocumentTimestamp(withDss, deps.stamp);
    const tokenData = await deps.validation.collect(stamped.token);
    if (covers(data, tokenData) || attempt >= 1) {
      if (!covers(data, tokenData))
        throw new Error('The archive timestamp authority changed between two timestamps');
      return stamped.bytes;
    }
    data = union(data, tokenData);
  }
}
