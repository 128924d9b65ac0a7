// RFC 3161 (Time-Stamp Protocol) on the wire, through pkijs: the request the service sends a
// timestamp authority, and the checks an answer must pass before its token is kept as evidence.
// A token that passes is a CMS SignedData over a TSTInfo that names our hash and our nonce, signed
// by a certificate that may issue timestamps; anything else is refused, never kept.
// @peculiar/x509 resolves its parsers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import {
  createHash,
  X509Certificate as NodeX509Certificate,
  randomBytes,
  verify,
  webcrypto,
} from 'node:crypto';
import { ExtendedKeyUsage, ExtendedKeyUsageExtension, X509Certificate } from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

pkijs.setEngine(
  'node',
  new pkijs.CryptoEngine({
    name: 'node',
    crypto: webcrypto as unknown as pkijs.CryptoEngineParameters['crypto'],
  }),
);

export const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  extKeyUsage: '2.5.29.37',
} as const;

/** Why an answer was refused: each a failure of the authority, so the next one is tried. */
export class TimestampRefusedError extends Error {
  override name = 'TimestampRefusedError';
}

export interface TTimestampRequest {
  /** DER TimeStampReq. */
  der: Buffer;
  /** The nonce's value, big-endian, without leading zero bytes. */
  nonce: Buffer;
  imprint: Buffer;
}

/**
 * A positive INTEGER of 64 random bits, as openssl's own client draws it. fromBigInt writes the
 * minimal DER (a 0x00 first when the top bit is set, none when the top byte is zero) that strict
 * authorities demand, so no bit has to be fixed to keep the encoding valid. Zero (a 2^-64 draw)
 * becomes 1: some parsers take a nonce of 0 for none.
 */
function newNonce(): asn1js.Integer {
  return asn1js.Integer.fromBigInt(randomBytes(8).readBigUInt64BE() || 1n);
}

/** A TimeStampReq for a SHA-256 imprint, with a fresh nonce, asking for the TSA's certificate. */
export function timestampRequest(imprint: Buffer): TTimestampRequest {
  if (imprint.length !== 32) throw new Error('A timestamp request takes a SHA-256 digest (32 bytes).');
  const nonce = newNonce();
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(imprint) }),
    }),
    nonce,
    certReq: true,
  });
  return { der: Buffer.from(req.toSchema().toBER(false)), nonce: integerBytes(nonce), imprint };
}

const bytes = (view: ArrayBuffer | Uint8Array) =>
  Buffer.from(view instanceof Uint8Array ? view : new Uint8Array(view));

function parseDer(der: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(new Uint8Array(der));
  if (parsed.offset === -1) throw new TimestampRefusedError(`the answer is not DER (${what})`);
  return parsed.result;
}

/** An INTEGER's value bytes without leading zero bytes, to compare nonces whatever their padding. */
const integerBytes = (i: asn1js.Integer) => {
  const b = bytes(i.valueBlock.valueHexView);
  let at = 0;
  while (at < b.length - 1 && b[at] === 0) at++;
  return b.subarray(at);
};

/** The TSTInfo a token carries, and the certificate that signed it. */
export interface TCheckedToken {
  /** The DER TimeStampToken (a CMS ContentInfo of SignedData), as CMS unsigned attributes hold it. */
  token: Buffer;
  genTime: Date;
  /** The signer certificate, DER. */
  tsaCertificate: Buffer;
}

/**
 * Checks a TimeStampResp against the request it answers and returns its token. Refused: a status
 * other than granted, a token that is not SignedData over a TSTInfo, a nonce or message imprint
 * other than ours, no signer certificate in the token, a signer certificate without the critical
 * id-kp-timeStamping extended key usage (RFC 3161 §2.3), and a signature that does not verify.
 */
export async function checkTimestampResponse(
  der: Buffer,
  request: TTimestampRequest,
): Promise<TCheckedToken> {
  let resp: pkijs.TimeStampResp;
  try {
    resp = new pkijs.TimeStampResp({ schema: parseDer(der, 'TimeStampResp') });
  } catch (err) {
    if (err instanceof TimestampRefusedError) throw err;
    throw new TimestampRefusedError('the answer is not a TimeStampResp');
  }
  const status = resp.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    throw new TimestampRefusedError(`the authority refused the request (PKIStatus ${status})`);
  }
  if (!resp.timeStampToken || resp.timeStampToken.contentType !== OID.signedData) {
    throw new TimestampRefusedError('the answer carries no SignedData token');
  }
  let signed: pkijs.SignedData;
  let tst: pkijs.TSTInfo;
  let tstDer: ArrayBuffer;
  try {
    signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
    if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent) {
      throw new TimestampRefusedError('the token does not hold a TSTInfo');
    }
    tstDer = new Uint8Array(signed.encapContentInfo.eContent.getValue()).slice().buffer;
    tst = new pkijs.TSTInfo({ schema: parseDer(new Uint8Array(tstDer), 'TSTInfo') });
  } catch (err) {
    if (err instanceof TimestampRefusedError) throw err;
    throw new TimestampRefusedError('the token is not a well-formed SignedData over a TSTInfo');
  }

  if (!tst.nonce || !integerBytes(tst.nonce).equals(request.nonce)) {
    throw new TimestampRefusedError('the token does not carry the nonce of the request');
  }
  const imprint = tst.messageImprint;
  if (
    imprint.hashAlgorithm.algorithmId !== OID.sha256 ||
    !bytes(imprint.hashedMessage.valueBlock.valueHexView).equals(request.imprint)
  ) {
    throw new TimestampRefusedError('the token stamps another message imprint than the one asked for');
  }

  const signer = signerCertificate(signed);
  if (!signer) throw new TimestampRefusedError('the token does not include the certificate that signed it');
  const signerDer = Buffer.from(signer.toSchema().toBER(false));
  const eku = new X509Certificate(signerDer).getExtension(ExtendedKeyUsageExtension);
  if (!eku?.critical || !eku.usages.includes(ExtendedKeyUsage.timeStamping)) {
    throw new TimestampRefusedError(
      'the signing certificate may not issue timestamps (no critical timeStamping key usage)',
    );
  }
  if (!verifySignerInfo(signed.signerInfos[0]!, Buffer.from(tstDer), signerDer)) {
    throw new TimestampRefusedError('the token signature does not verify');
  }

  return {
    token: Buffer.from(resp.timeStampToken.toSchema().toBER(false)),
    genTime: tst.genTime,
    tsaCertificate: signerDer,
  };
}

const HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * The signer's signature over its signed attributes, and their message digest over the TSTInfo
 * (RFC 5652 §5.4). Checked here rather than by pkijs's SignedData.verify, which for a TSTInfo
 * wants the stamped data itself, where a timestamp client holds only its digest. RSA PKCS #1 v1.5
 * and ECDSA signatures, as timestamp authorities issue them.
 */
function verifySignerInfo(si: pkijs.SignerInfo, tstDer: Buffer, certDer: Buffer): boolean {
  const hash = HASHES[si.digestAlgorithm.algorithmId];
  if (!hash || !si.signedAttrs?.encodedValue) return false;
  const digest = si.signedAttrs.attributes.find((a) => a.type === '1.2.840.113549.1.9.4')?.values[0];
  if (!(digest instanceof asn1js.OctetString)) return false;
  if (!bytes(digest.valueBlock.valueHexView).equals(createHash(hash).update(tstDer).digest())) return false;
  // What was signed is the attributes' DER as a SET, not with the [0] tag they carry in SignerInfo.
  const signedAttrs = Buffer.from(new Uint8Array(si.signedAttrs.encodedValue));
  signedAttrs[0] = 0x31;
  try {
    return verify(
      hash,
      signedAttrs,
      new NodeX509Certificate(certDer).publicKey,
      bytes(si.signature.valueBlock.valueHexView),
    );
  } catch {
    return false;
  }
}

/** The certificate the token's first signer names (by issuer and serial, or key identifier). */
function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate | undefined {
  const sid = signed.signerInfos[0]?.sid;
  const certs = (signed.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  if (!sid) return undefined;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  }
  // SubjectKeyIdentifier: the SHA-1 of the subject public key, as RFC 5280 §4.2.1.2 method (1).
  const wanted = bytes((sid as asn1js.OctetString).valueBlock.valueHexView);
  return certs.find((c) =>
    createHash('sha1')
      .update(bytes(c.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView))
      .digest()
      .equals(wanted),
  );
}
