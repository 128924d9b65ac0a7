// Revocation data for a certificate (RFC 6960 OCSP responses, RFC 5280 CRLs), as the DSS of a
// file carries them or a CA serves them now. An answer counts only when its signature holds: an
// OCSP response signed by the certificate's issuer or by a responder the issuer delegated to
// (id-kp-OCSPSigning), a CRL signed by the issuer. Unsigned or foreign data is ignored, not trusted.
import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { certOf, nameOf, type TCert } from './certificates';
import { sentence, type TWords, words } from './check-words';
import { HASHES } from './cms-signer';
import { verifyWithKey } from './crypto-engine';
import type { TRevocationFacts } from './report';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const BASIC_OCSP = '1.3.6.1.5.5.7.48.1.1';

/** Whose signature vouches for an answer: the English `source`, and its words. */
const signedBy = (said: TWords) => ({ source: sentence(said), sourceSaid: said });

export const NO_DATA: TRevocationFacts = { status: 'none', source: null, revokedAt: null, producedAt: null };

function parse(der: Uint8Array): asn1js.AsnType | undefined {
  const parsed = asn1js.fromBER(new Uint8Array(der));
  return parsed.offset === -1 ? undefined : parsed.result;
}

/** The BasicOCSPResponse inside an OCSPResponse, when it was successful. */
export function basicResponseOf(der: Uint8Array): pkijs.BasicOCSPResponse | undefined {
  try {
    const schema = parse(der);
    if (!schema) return undefined;
    const resp = new pkijs.OCSPResponse({ schema });
    if (resp.responseStatus.valueBlock.valueDec !== 0 || !resp.responseBytes) return undefined;
    if (resp.responseBytes.responseType !== BASIC_OCSP) return undefined;
    const inner = parse(resp.responseBytes.response.valueBlock.valueHexView);
    return inner ? new pkijs.BasicOCSPResponse({ schema: inner }) : undefined;
  } catch {
    return undefined;
  }
}

function delegatedBy(responder: TCert, issuer: TCert): boolean {
  try {
    if (!responder.x509.verify(issuer.x509.publicKey)) return false;
    const eku = new x509.X509Certificate(responder.der).getExtension(x509.ExtendedKeyUsageExtension);
    return Boolean(eku?.usages.includes(OCSP_SIGNING));
  } catch {
    return false;
  }
}

/** The responder whose key verifies the response: the issuer itself or its delegate. */
async function responderOf(basic: pkijs.BasicOCSPResponse, issuer: TCert): Promise<TCert | undefined> {
  const delegates = (basic.certs ?? [])
    .map((c) => certOf(new Uint8Array(c.toSchema().toBER(false))))
    .filter((c): c is TCert => Boolean(c) && delegatedBy(c!, issuer));
  for (const candidate of [issuer, ...delegates]) {
    const ok = await verifyWithKey(
      basic.tbsResponseData.tbsView,
      basic.signature,
      candidate.pkijs.subjectPublicKeyInfo,
      basic.signatureAlgorithm,
    );
    if (ok) return candidate;
  }
  return undefined;
}

function namesCert(id: pkijs.CertID, cert: TCert, issuer: TCert): boolean {
  const hash = HASHES[id.hashAlgorithm.algorithmId];
  if (!hash || !id.serialNumber.isEqual(cert.pkijs.serialNumber)) return false;
  const digest = (data: Uint8Array | ArrayBuffer) =>
    createHash(hash.node).update(new Uint8Array(data)).digest();
  const bytes = (o: asn1js.OctetString) => Buffer.from(o.valueBlock.valueHexView);
  return (
    bytes(id.issuerNameHash).equals(digest(cert.pkijs.issuer.toSchema().toBER(false))) &&
    bytes(id.issuerKeyHash).equals(
      digest(issuer.pkijs.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    )
  );
}

/** What a validly signed OCSP response says of `cert`; undefined when it is not about it or not signed. */
export async function ocspStatus(
  der: Uint8Array,
  cert: TCert,
  issuer: TCert,
): Promise<TRevocationFacts | undefined> {
  const basic = basicResponseOf(der);
  if (!basic) return undefined;
  const single = basic.tbsResponseData.responses.find((r) => namesCert(r.certID, cert, issuer));
  if (!single) return undefined;
  const responder = await responderOf(basic, issuer);
  if (!responder) return undefined;
  const by = signedBy(words('verify.checks.sourceOcsp', { signer: nameOf(responder) }));
  const producedAt = basic.tbsResponseData.producedAt.toISOString();
  const status = single.certStatus as asn1js.BaseBlock;
  switch (status.idBlock.tagNumber) {
    case 0:
      return { status: 'good', ...by, revokedAt: null, producedAt };
    case 1: {
      const time = (status as asn1js.Constructed).valueBlock.value[0] as asn1js.GeneralizedTime | undefined;
      return { status: 'revoked', ...by, revokedAt: time?.toDate?.().toISOString() ?? null, producedAt };
    }
    default:
      return { status: 'unknown', ...by, revokedAt: null, producedAt };
  }
}

/** What a CRL signed by `issuer` says of `cert`; undefined when it is another issuer's or not signed. */
export async function crlStatus(
  der: Uint8Array,
  cert: TCert,
  issuer: TCert,
): Promise<TRevocationFacts | undefined> {
  try {
    const crl = new x509.X509Crl(new Uint8Array(der));
    const issuerCert = new x509.X509Certificate(issuer.der);
    if (crl.issuerName.toString() !== issuerCert.subjectName.toString()) return undefined;
    if (!(await crl.verify({ publicKey: issuerCert }))) return undefined;
    const entry = crl.findRevoked(new x509.X509Certificate(cert.der));
    return {
      status: entry ? 'revoked' : 'good',
      ...signedBy(words('verify.checks.sourceCrl', { signer: nameOf(issuer) })),
      revokedAt: entry ? entry.revocationDate.toISOString() : null,
      producedAt: crl.thisUpdate.toISOString(),
    };
  } catch {
    return undefined;
  }
}

/**
 * The status of `cert` from a set of OCSP responses and CRLs: revoked if any valid answer says so,
 * else good if one does, else unknown if a responder said so, else none.
 */
export async function revocationStatus(
  cert: TCert,
  issuer: TCert,
  data: { ocsps: Uint8Array[]; crls: Uint8Array[] },
): Promise<TRevocationFacts> {
  const answers = [
    ...(await Promise.all(data.ocsps.map((d) => ocspStatus(d, cert, issuer)))),
    ...(await Promise.all(data.crls.map((d) => crlStatus(d, cert, issuer)))),
  ].filter((a): a is TRevocationFacts => Boolean(a));
  for (const status of ['revoked', 'good', 'unknown'] as const) {
    const answer = answers.find((a) => a.status === status);
    if (answer) return answer;
  }
  return NO_DATA;
}
