// The CMS SignedData (RFC 5652) in a seal's /Contents, as PAdES baseline B-B wants it for
// ETSI.CAdES.detached (ETSI EN 319 142-1): detached content, SHA-256, signed attributes
// content-type, message-digest, ESS signing-certificate-v2 (RFC 5035) naming the certificate and
// CMS algorithm protection (RFC 6211, which current validators expect: it binds the digest and
// signature algorithms into what is signed, against algorithm substitution), and no signing-time
// attribute (the claimed time is the signature dictionary's /M); with a
// timestamp authority, its token over the signature as an unsigned attribute (B-T). Encoded
// here in DER directly: node-forge's PKCS #7 writer knows no signing-certificate-v2 attribute.
// The signature itself is the seal signer's (seal-signer.ts: a key in memory, or KMS), RSA or
// ECDSA; the certificates set carries the signer's whole chain, so a verifier finds the
// intermediates without fetching them.
import { createHash } from 'node:crypto';
import type { TSealAlgorithm, TSealSigner } from './seal-signer';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  cmsAlgorithmProtection: '1.2.840.113549.1.9.52',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

// ---- DER writing ----

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octets = (bytes: Buffer) => tlv(0x04, bytes);
const int = (n: number) => tlv(0x02, Buffer.from([n]));
const NULL = Buffer.from([0x05, 0x00]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [a * 40 + b];
  for (const part of rest) {
    const groups: number[] = [];
    let v = part;
    do {
      groups.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    bytes.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** DER's SET OF: elements in ascending order of their encodings. */
const setOf = (items: Buffer[]) => set(...[...items].sort(Buffer.compare));

/**
 * The SignerInfo's signatureAlgorithm. RSA as rsaEncryption with NULL parameters (the digest is
 * named beside it, and every PAdES validator reads it so); ECDSA as ecdsa-with-SHA256, whose
 * parameters are absent (RFC 5758).
 */
const signatureAlgorithm = (algorithm: TSealAlgorithm) =>
  algorithm === 'ECDSA_SHA_256' ? seq(oid(OID.ecdsaWithSha256)) : seq(oid(OID.rsaEncryption), NULL);

// ---- DER reading (just enough to take the issuer and serial number out of a certificate) ----

interface TNode {
  start: number;
  contentStart: number;
  end: number;
  tag: number;
}

function node(der: Buffer, at: number): TNode {
  const tag = der[at]!;
  let length = der[at + 1]!;
  let p = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[p++]!;
  }
  if (p + length > der.length) throw new Error('The certificate is not valid DER');
  return { tag, start: at, contentStart: p, end: p + length };
}

function childrenOf(der: Buffer, parent: TNode): TNode[] {
  const out: TNode[] = [];
  for (let p = parent.contentStart; p < parent.end; p = out.at(-1)!.end) out.push(node(der, p));
  return out;
}

/** The DER of the certificate's serial number and issuer name, as they are in it. */
function issuerAndSerial(certificate: Buffer): { serial: Buffer; issuer: Buffer } {
  const tbs = childrenOf(certificate, childrenOf(certificate, node(certificate, 0))[0]!);
  const at = tbs[0]!.tag === 0xa0 ? 1 : 0; // [0] version is optional
  const serial = tbs[at]!;
  const issuer = tbs[at + 2]!;
  return {
    serial: certificate.subarray(serial.start, serial.end),
    issuer: certificate.subarray(issuer.start, issuer.end),
  };
}

/**
 * Timestamps a signature: given the SHA-256 of the signature value, answers the DER
 * TimeStampToken of an authority that vouches for it (RFC 3161), already checked.
 */
export type TStampSignature = (imprint: Buffer) => Promise<Buffer>;

/**
 * A DER ContentInfo holding the detached SignedData over content whose SHA-256 is `digest`
 * (the signed byte ranges), signed by `signer` for the first certificate of its chain. With `stamp`, the
 * SignerInfo also carries the authority's token over the signature value as the unsigned
 * attribute id-aa-signatureTimeStampToken (RFC 3161 Appendix A): PAdES baseline B-T.
 */
export async function signDetached(
  digest: Buffer,
  signer: TSealSigner,
  stamp?: TStampSignature,
): Promise<Buffer> {
  const certificate = signer.chain[0];
  if (!certificate) throw new Error('The seal signer has no certificate');
  const sha256 = seq(oid(OID.sha256));
  const { serial, issuer } = issuerAndSerial(certificate);
  const essCertIdV2 = seq(
    // hashAlgorithm is left out: SHA-256 is its default, and DER omits defaults.
    octets(createHash('sha256').update(certificate).digest()),
    seq(seq(tlv(0xa4, issuer)), serial),
  );
  const signatureAlgorithmId = signatureAlgorithm(signer.algorithm);
  // CMSAlgorithmProtection { digestAlgorithm, signatureAlgorithm [1] IMPLICIT }: the very
  // AlgorithmIdentifiers the SignerInfo names, as RFC 6211 asks.
  const algorithmProtection = seq(
    sha256,
    Buffer.concat([Buffer.from([0xa1]), signatureAlgorithmId.subarray(1)]),
  );
  const attributes = [
    seq(oid(OID.contentType), set(oid(OID.data))),
    seq(oid(OID.messageDigest), set(octets(digest))),
    seq(oid(OID.signingCertificateV2), set(seq(seq(essCertIdV2)))),
    seq(oid(OID.cmsAlgorithmProtection), set(algorithmProtection)),
  ];
  // Signed as a SET OF; stored in the SignerInfo under the [0] IMPLICIT tag instead.
  const signedAttributes = setOf(attributes);
  const signature = await signer.sign(signedAttributes);
  // The timestamp covers the signature value itself (the OCTET STRING's content).
  const unsignedAttributes = stamp
    ? [
        tlv(
          0xa1,
          seq(
            oid(OID.signatureTimeStampToken),
            set(await stamp(createHash('sha256').update(signature).digest())),
          ),
        ),
      ]
    : [];
  const signerInfo = seq(
    int(1),
    seq(issuer, serial),
    sha256,
    Buffer.concat([Buffer.from([0xa0]), signedAttributes.subarray(1)]),
    signatureAlgorithmId,
    octets(signature),
    ...unsignedAttributes,
  );
  // CertificateSet is a SET OF, [0] IMPLICIT: DER order, as setOf.
  const certificates = tlv(0xa0, ...[...signer.chain].sort(Buffer.compare));
  const signedData = seq(int(1), set(sha256), seq(oid(OID.data)), certificates, set(signerInfo));
  return seq(oid(OID.signedData), tlv(0xa0, signedData));
}
