// The validation data of a signature (PAdES B-LT): every certificate of the chains behind it (the
// seal's, and the timestamp authority's of each token in it) and, for each certificate below a
// root, proof that it was not revoked when the file was sealed: an OCSP answer where the
// certificate names a responder, else its issuer's CRL. Missing issuers are fetched from the
// certificates' caIssuers URLs. Every answer is checked before it is kept (signed by the issuer,
// fresh, about this certificate); a revoked certificate or data that cannot be had fails the
// seal with the reason, so no file claims long-term validity it does not have. The status of the
// signature's own certificate is asked afresh for each signature and must postdate its timestamp:
// an answer kept from an earlier seal would say "good" across a revocation made since (a
// compromised seal key revoked by the operator), and one older than the signature says nothing
// of the moment it was made. The rest (issuers, the timestamp authorities' status) is shared by
// the seals of a bundle for a few minutes, never past the answer's own nextUpdate.
import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { ValidationDataUnavailableError } from '#shared/domain/errors';
import type { TValidationData, TValidationDataCollector } from '#shared/domain/ports/evidence';
import '../timestamps/tsp'; // sets pkijs's crypto engine

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** Reads an http(s) URL (public addresses only on AWS) and answers its bytes. */
export type TPkiGet = (url: string) => Promise<Buffer>;

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  basicOcsp: '1.3.6.1.5.5.7.48.1.1',
} as const;

/** How long fetched answers are used again by default (the seals of one bundle share every chain). */
const CACHE_MS = 5 * 60_000;
const MAX_CHAIN = 8;

const der = (c: x509.X509Certificate) => Buffer.from(c.rawData);
const subjectOf = (c: x509.X509Certificate) => c.subject;

/** Whose signature a CMS SignedData is, and when its signature timestamp token says it was made. */
interface TSignatureSubject {
  signer: x509.X509Certificate | undefined;
  stampedAt: Date | undefined;
}

function subjectOfSignature(contentInfo: Buffer): TSignatureSubject {
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(contentInfo));
  const signed = new pkijs.SignedData({ schema: info.content });
  const si = signed.signerInfos[0];
  const sid = si?.sid;
  const cert =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? (signed.certificates ?? []).find(
          (c): c is pkijs.Certificate =>
            c instanceof pkijs.Certificate &&
            c.serialNumber.isEqual(sid.serialNumber) &&
            c.issuer.isEqual(sid.issuer),
        )
      : undefined;
  let stampedAt: Date | undefined;
  const token = si?.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)?.values[0];
  if (token) {
    const tokenInfo = pkijs.ContentInfo.fromBER(token.toBER(false));
    const tokenSigned = new pkijs.SignedData({ schema: tokenInfo.content });
    const eContent = tokenSigned.encapContentInfo.eContent;
    if (eContent) stampedAt = pkijs.TSTInfo.fromBER(eContent.getValue()).genTime;
  }
  return {
    signer: cert ? new x509.X509Certificate(cert.toSchema().toBER(false)) : undefined,
    stampedAt,
  };
}

/** How an answer about one certificate is had: `fresh` skips the shared cache; `notBefore` its oldest time. */
interface TAsk {
  fresh: boolean;
  notBefore: Date | undefined;
}

/** Whole seconds: the resolution of the times in tokens, OCSP answers and CRLs. */
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The certificates of a CMS SignedData and of every signature timestamp token inside it. */
function certificatesIn(contentInfo: Buffer, depth = 0): x509.X509Certificate[] {
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(contentInfo));
  if (info.contentType !== OID.signedData) throw new Error('not a CMS SignedData');
  const signed = new pkijs.SignedData({ schema: info.content });
  const out = (signed.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new x509.X509Certificate(c.toSchema().toBER(false)));
  if (depth > 0) return out;
  for (const si of signed.signerInfos) {
    for (const attr of si.unsignedAttrs?.attributes ?? []) {
      if (attr.type !== OID.signatureTimeStampToken) continue;
      for (const token of attr.values)
        out.push(...certificatesIn(Buffer.from(token.toBER(false)), depth + 1));
    }
  }
  return out;
}

function uris(c: x509.X509Certificate, kind: 'ocsp' | 'caIssuers' | 'crl'): string[] {
  if (kind === 'crl') {
    const dp = c.getExtension(x509.CRLDistributionPointsExtension);
    return (dp?.distributionPoints ?? []).flatMap((p) =>
      (p.distributionPoint?.fullName ?? []).flatMap((n) =>
        n.uniformResourceIdentifier ? [n.uniformResourceIdentifier] : [],
      ),
    );
  }
  const aia = c.getExtension(x509.AuthorityInfoAccessExtension);
  return (aia?.[kind] ?? []).filter((n) => n.type === 'url').map((n) => n.value);
}

const isHttp = (u: string) => /^https?:\/\//i.test(u);

export function createValidationDataCollector(
  get: TPkiGet,
  opts: { cacheMs?: number; now?: () => Date } = {},
): TValidationDataCollector {
  const cacheMs = opts.cacheMs ?? CACHE_MS;
  const now = opts.now ?? (() => new Date());
  const cache = new Map<string, { until: number; value: Promise<unknown> }>();
  /** `make()` once per key while fresh; a failure is not kept. */
  function cached<T>(key: string, make: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value as Promise<T>;
    const value = make();
    cache.set(key, { until: Date.now() + cacheMs, value });
    value.catch(() => cache.delete(key));
    return value;
  }
  /** An answer kept no longer than its own nextUpdate allows. */
  function keepUntil(key: string, nextUpdate: Date | undefined) {
    const hit = cache.get(key);
    if (hit && nextUpdate && nextUpdate.getTime() < hit.until) hit.until = nextUpdate.getTime();
  }
  /** The bytes at `url`: asked now when `fresh`, else through the cache. */
  const read = (key: string, url: string, ask: TAsk) => (ask.fresh ? get(url) : cached(key, () => get(url)));

  /** The issuer from the pool, else from caIssuers; `tried` collects why each URL did not give it. */
  async function issuerOf(
    c: x509.X509Certificate,
    pool: x509.X509Certificate[],
    tried: string[],
  ): Promise<x509.X509Certificate | undefined> {
    for (const candidate of pool) {
      if (
        candidate.subject === c.issuer &&
        (await c.verify({ publicKey: candidate.publicKey, signatureOnly: true }))
      )
        return candidate;
    }
    for (const url of uris(c, 'caIssuers').filter(isHttp)) {
      try {
        const body = await cached(`ca ${url}`, () => get(url));
        const text = body.toString('latin1');
        const candidate = new x509.X509Certificate(text.includes('-----BEGIN') ? text : body);
        if (
          candidate.subject === c.issuer &&
          (await c.verify({ publicKey: candidate.publicKey, signatureOnly: true }))
        )
          return candidate;
        tried.push(`${url}: not the issuer's certificate`);
      } catch (err) {
        // another URL may answer; none: the chain stays incomplete and that is the failure
        tried.push(`${url}: ${(err as Error).message}`);
      }
    }
    return undefined;
  }

  /** A checked OCSP answer that `c` was good, as DER OCSPResponse. */
  async function ocspFor(
    c: x509.X509Certificate,
    issuer: x509.X509Certificate,
    url: string,
    ask: TAsk,
  ): Promise<Buffer> {
    const cert = pkijs.Certificate.fromBER(c.rawData);
    const issuerCert = pkijs.Certificate.fromBER(issuer.rawData);
    const request = new pkijs.OCSPRequest();
    await request.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuerCert });
    const requestDer = Buffer.from(request.toSchema(true).toBER(false));
    // RFC 6960 A.1: GET with the request in the path, which the guarded fetcher can send.
    const key = `ocsp ${url} ${c.serialNumber}`;
    const body = await read(
      key,
      `${url.replace(/\/$/, '')}/${encodeURIComponent(requestDer.toString('base64'))}`,
      ask,
    );
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(body));
    if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes) {
      throw new Error(`the OCSP responder answered status ${response.responseStatus.valueBlock.valueDec}`);
    }
    if (response.responseBytes.responseType !== OID.basicOcsp)
      throw new Error('the OCSP answer is not a basic one');
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    // A CA answering for itself need not attach its certificate; pkijs looks for the signer there.
    if (!basic.certs?.length) basic.certs = [issuerCert];
    const trusted = await basic
      .verify({ trustedCerts: [issuerCert], issuerCerts: [issuerCert] })
      .catch(() => false);
    if (!trusted) throw new Error('the OCSP answer is not signed by the issuer or its responder');
    const { isForCertificate, status } = await basic.getCertificateStatus(cert, issuerCert);
    if (!isForCertificate) throw new Error('the OCSP answer is about another certificate');
    const single = basic.tbsResponseData.responses[0];
    if (single?.nextUpdate && single.nextUpdate.getTime() < now().getTime())
      throw new Error('the OCSP answer is out of date');
    keepUntil(key, single?.nextUpdate);
    if (ask.notBefore && single && seconds(single.thisUpdate) < seconds(ask.notBefore))
      throw new Error(
        `the OCSP answer (${single.thisUpdate.toISOString()}) is older than the signature's timestamp (${ask.notBefore.toISOString()})`,
      );
    if (status === 1) throw new RevokedError('revoked (OCSP)');
    if (status !== 0) throw new Error('the OCSP responder does not know it');
    return body;
  }

  /** A checked CRL of `issuer` on which `c` is not listed, as DER. */
  async function crlFor(
    c: x509.X509Certificate,
    issuer: x509.X509Certificate,
    url: string,
    ask: TAsk,
  ): Promise<Buffer> {
    const body = await read(`crl ${url}`, url, ask);
    const crl = new x509.X509Crl(body);
    if (crl.issuer !== issuer.subject || !(await crl.verify({ publicKey: issuer.publicKey })))
      throw new Error('the CRL is not signed by the issuer');
    if (crl.nextUpdate && crl.nextUpdate.getTime() < now().getTime())
      throw new Error('the CRL is out of date');
    keepUntil(`crl ${url}`, crl.nextUpdate);
    if (ask.notBefore && seconds(crl.thisUpdate) < seconds(ask.notBefore))
      throw new Error(
        `the CRL (${crl.thisUpdate.toISOString()}) is older than the signature's timestamp (${ask.notBefore.toISOString()})`,
      );
    const entry = crl.findRevoked(c);
    if (entry) throw new RevokedError(`revoked on ${entry.revocationDate.toISOString()} (CRL)`);
    return body;
  }

  return {
    async collect(signature: Buffer): Promise<TValidationData> {
      const pool = dedupe(certificatesIn(signature));
      const subject = subjectOfSignature(signature);
      const failures: { certificate: string; reason: string }[] = [];
      const ocsps: Buffer[] = [];
      const crls: Buffer[] = [];
      for (let i = 0; i < pool.length; i++) {
        const c = pool[i]!;
        if (await c.isSelfSigned()) continue; // a root: trusted or not, nothing vouches for it
        const tried: string[] = [];
        const issuer = pool.length < MAX_CHAIN * 4 ? await issuerOf(c, pool, tried) : undefined;
        if (!issuer) {
          failures.push({
            certificate: subjectOf(c),
            reason: `its issuer certificate could not be found${tried.length ? ` (${tried.join('; ')})` : ''}`,
          });
          continue;
        }
        if (!pool.some((p) => p.equal(issuer))) pool.push(issuer);
        // OCSP where the certificate names a responder, its issuer's CRL otherwise (or when no
        // responder answered well): the first answer that checks out is the proof.
        const reasons: string[] = [];
        let proof: { kind: 'ocsp' | 'crl'; bytes: Buffer } | undefined;
        const sources = [
          ...uris(c, 'ocsp').map((url) => ({ kind: 'ocsp' as const, url, read: ocspFor })),
          ...uris(c, 'crl').map((url) => ({ kind: 'crl' as const, url, read: crlFor })),
        ].filter((s) => isHttp(s.url));
        const own = subject.signer?.equal(c) ?? false;
        const ask: TAsk = { fresh: own, notBefore: own ? subject.stampedAt : undefined };
        for (const { kind, url, read: readProof } of sources) {
          try {
            proof = { kind, bytes: await readProof(c, issuer, url, ask) };
            break;
          } catch (err) {
            if (err instanceof RevokedError)
              throw new ValidationDataUnavailableError([{ certificate: subjectOf(c), reason: err.message }]);
            reasons.push(`${url}: ${(err as Error).message}`);
          }
        }
        if (proof?.kind === 'ocsp') ocsps.push(proof.bytes);
        else if (proof) {
          if (!crls.some((b) => b.equals(proof.bytes))) crls.push(proof.bytes);
        } else
          failures.push({
            certificate: subjectOf(c),
            reason: reasons.length ? reasons.join('; ') : 'it names no OCSP responder and no CRL',
          });
      }
      if (failures.length) throw new ValidationDataUnavailableError(failures);
      return { certificates: pool.map(der), ocsps, crls };
    },
  };
}

class RevokedError extends Error {}

function dedupe(certs: x509.X509Certificate[]): x509.X509Certificate[] {
  const seen = new Set<string>();
  return certs.filter((c) => {
    const key = createHash('sha256').update(der(c)).digest('hex');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
