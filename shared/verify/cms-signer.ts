// The one signer of a CMS SignedData (RFC 5652), checked as PAdES and RFC 3161 both need it: the
// message-digest attribute equals the digest of the content (given by the caller, since a PDF
// signature's content is its byte ranges and a token's is its TSTInfo), and the signature over
// the signed attributes holds with the key of the certificate the SignerInfo names.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { type CertPool, certificatesOf, signerOf, type TCert } from './certificates';
import { verifyWithKey } from './crypto-engine';

const SIGNED_DATA = '1.2.840.113549.1.7.2';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_TIME = '1.2.840.113549.1.9.5';

/** Digest algorithms by OID: node:crypto's name and WebCrypto's. */
export const HASHES: Record<string, { node: string; web: string }> = {
  '1.3.14.3.2.26': { node: 'sha1', web: 'SHA-1' },
  '2.16.840.1.101.3.4.2.1': { node: 'sha256', web: 'SHA-256' },
  '2.16.840.1.101.3.4.2.2': { node: 'sha384', web: 'SHA-384' },
  '2.16.840.1.101.3.4.2.3': { node: 'sha512', web: 'SHA-512' },
};

export interface TSignerCheck {
  signed: pkijs.SignedData;
  signerInfo: pkijs.SignerInfo;
  signer: TCert | undefined;
  digestMatches: boolean;
  signatureValid: boolean;
  signingTime: Date | undefined;
  /** The first reason it does not hold, in words. */
  problem: string | undefined;
}

/** A ContentInfo of SignedData from DER; trailing bytes (a /Contents' zero padding) are ignored. */
export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const parsed = asn1js.fromBER(new Uint8Array(der));
  if (parsed.offset === -1) throw new Error('it is not DER');
  const info = new pkijs.ContentInfo({ schema: parsed.result });
  if (info.contentType !== SIGNED_DATA) throw new Error('it is not CMS SignedData');
  const signed = new pkijs.SignedData({ schema: info.content });
  if (signed.signerInfos.length === 0) throw new Error('it names no signer');
  return signed;
}

/**
 * Checks the first signer. `contentDigest` answers the digest of the signed content for a hash
 * (node:crypto name); the SignerInfo's digest algorithm chooses it. Certificates of the
 * SignedData go into `pool`, where the signer is also looked for.
 */
export async function checkSigner(
  signed: pkijs.SignedData,
  contentDigest: (hash: string) => Buffer,
  pool: CertPool,
): Promise<TSignerCheck> {
  const signerInfo = signed.signerInfos[0]!;
  const own = certificatesOf(signed)
    .map((der) => pool.add(der))
    .filter((c): c is TCert => Boolean(c));
  const signer = signerOf(signerInfo, own) ?? signerOf(signerInfo, pool.all());
  const attrs = signerInfo.signedAttrs?.attributes ?? [];
  const timeAttr = attrs.find((a) => a.type === SIGNING_TIME)?.values[0] as asn1js.UTCTime | undefined;
  const base = {
    signed,
    signerInfo,
    signer,
    digestMatches: false,
    signatureValid: false,
    signingTime: timeAttr?.toDate?.(),
  };
  const hash = HASHES[signerInfo.digestAlgorithm.algorithmId];
  if (!hash)
    return { ...base, problem: `its digest algorithm ${signerInfo.digestAlgorithm.algorithmId} is unknown` };
  const digestAttr = attrs.find((a) => a.type === MESSAGE_DIGEST)?.values[0];
  if (!signerInfo.signedAttrs?.encodedValue || !(digestAttr instanceof asn1js.OctetString)) {
    return { ...base, problem: 'it has no signed message digest (PAdES and RFC 3161 require one)' };
  }
  const digestMatches = Buffer.from(digestAttr.valueBlock.valueHexView).equals(contentDigest(hash.node));
  if (!signer) {
    return { ...base, digestMatches, problem: 'the certificate of its signer is not in the file' };
  }
  // Signed as a SET OF (tag 0x31), stored under the [0] IMPLICIT tag.
  const signedAttrs = new Uint8Array(signerInfo.signedAttrs.encodedValue).slice();
  signedAttrs[0] = 0x31;
  const signatureValid = await verifyWithKey(
    signedAttrs,
    signerInfo.signature,
    signer.pkijs.subjectPublicKeyInfo,
    signerInfo.signatureAlgorithm,
    hash.web,
  );
  const problem = !digestMatches
    ? 'the signed bytes do not hash to the digest that was signed'
    : !signatureValid
      ? `the signature does not hold with the key of ${signer.x509.subject.replace(/\n/g, ', ')}`
      : undefined;
  return { ...base, digestMatches, signatureValid, problem };
}
