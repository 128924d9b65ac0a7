// Certificates as the verifier meets them: DER from a CMS set, a timestamp token or the DSS, read
// with node:crypto (names, dates, fingerprints, issuer signatures) and pkijs (the key, for CMS
// and OCSP signature checks). A pool keeps each certificate once, by fingerprint.
import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TCertificateFacts } from './report';

export interface TCert {
  der: Buffer;
  x509: X509Certificate;
  pkijs: pkijs.Certificate;
  /** SHA-256 of the DER, uppercase hex with colons. */
  sha256: string;
}

/** A certificate from DER; undefined when it does not parse (a file may carry junk). */
export function certOf(der: Uint8Array): TCert | undefined {
  try {
    const buf = Buffer.from(der);
    const x509 = new X509Certificate(buf);
    const parsed = asn1js.fromBER(new Uint8Array(buf));
    if (parsed.offset === -1) return undefined;
    return {
      der: buf,
      x509,
      pkijs: new pkijs.Certificate({ schema: parsed.result }),
      sha256: x509.fingerprint256,
    };
  } catch {
    return undefined;
  }
}

export const fingerprintOf = (der: Uint8Array) =>
  createHash('sha256')
    .update(der)
    .digest('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');

/** node:crypto prints names one attribute a line; a report wants them on one. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

export function factsOf(cert: TCert): TCertificateFacts {
  return {
    subject: oneLine(cert.x509.subject),
    issuer: oneLine(cert.x509.issuer),
    serial: cert.x509.serialNumber.toUpperCase(),
    sha256: cert.sha256,
    notBefore: new Date(cert.x509.validFrom).toISOString(),
    notAfter: new Date(cert.x509.validTo).toISOString(),
  };
}

/** The common name, or the whole subject when it has none. */
export const nameOf = (cert: TCert) =>
  /(?:^|\n)CN=([^\n]*)/.exec(cert.x509.subject)?.[1] ?? oneLine(cert.x509.subject);

/** Every certificate met in the file, once each. */
export class CertPool {
  private readonly byPrint = new Map<string, TCert>();

  add(der: Uint8Array | undefined): TCert | undefined {
    if (!der) return undefined;
    const cert = certOf(der);
    if (!cert) return undefined;
    const known = this.byPrint.get(cert.sha256);
    if (known) return known;
    this.byPrint.set(cert.sha256, cert);
    return cert;
  }

  all(): TCert[] {
    return [...this.byPrint.values()];
  }
}

/** The certificates of a pkijs SignedData, as DER. */
export function certificatesOf(signed: pkijs.SignedData): Buffer[] {
  return (signed.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => Buffer.from(c.toSchema().toBER(false)));
}

/** The certificate a SignerInfo names, by issuer and serial or by subject key identifier. */
export function signerOf(si: pkijs.SignerInfo, certs: TCert[]): TCert | undefined {
  const sid = si.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find(
      (c) => c.pkijs.issuer.isEqual(sid.issuer) && c.pkijs.serialNumber.isEqual(sid.serialNumber),
    );
  }
  // SubjectKeyIdentifier: RFC 5280 §4.2.1.2 method (1), the SHA-1 of the public key bits.
  const wanted = Buffer.from((sid as asn1js.OctetString).valueBlock.valueHexView);
  return certs.find((c) =>
    createHash('sha1')
      .update(c.pkijs.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)
      .digest()
      .equals(wanted),
  );
}
