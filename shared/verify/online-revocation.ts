// With --online: the revocation data a certificate's CA serves now, from the OCSP responder its
// Authority Information Access names and the CRL distribution points it lists (http and https
// only; RFC 5280 also allows ldap, which nothing here speaks). This is how a certificate revoked
// after a file was sealed shows as revoked: the file's own DSS was gathered before that.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import type { TCert } from './certificates';

/** A CA that does not answer within this is reported as unreachable, not waited for. */
const TIMEOUT_MS = 10_000;

export interface TFetched {
  ocsps: Buffer[];
  crls: Buffer[];
  /** Each URL that could not be read, and why. */
  problems: string[];
}

const webUrl = (u: string | undefined) => (u && /^https?:\/\//i.test(u) ? u : undefined);

export function ocspUrlsOf(cert: TCert): string[] {
  const info = cert.x509.infoAccess ?? '';
  return [...info.matchAll(/^OCSP - URI:(\S+)$/gm)].map((m) => webUrl(m[1])).filter((u): u is string => !!u);
}

export function crlUrlsOf(cert: TCert): string[] {
  try {
    const ext = new x509.X509Certificate(cert.der).getExtension(x509.CRLDistributionPointsExtension);
    return (ext?.distributionPoints ?? [])
      .flatMap((dp) => dp.distributionPoint?.fullName ?? [])
      .map((name) => webUrl(name.uniformResourceIdentifier))
      .filter((u): u is string => !!u);
  } catch {
    return [];
  }
}

async function read(url: string, init: RequestInit): Promise<Buffer> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Asks each OCSP responder and each CRL distribution point of `cert` for its current answer. */
export async function fetchRevocationData(cert: TCert, issuer: TCert): Promise<TFetched> {
  const out: TFetched = { ocsps: [], crls: [], problems: [] };
  const why = (url: string, err: unknown) =>
    out.problems.push(
      `${url}: ${(err as Error).name === 'TimeoutError' ? 'no answer' : (err as Error).message}`,
    );
  for (const url of ocspUrlsOf(cert)) {
    try {
      const request = new pkijs.OCSPRequest();
      await request.createForCertificate(cert.pkijs, {
        hashAlgorithm: 'SHA-1',
        issuerCertificate: issuer.pkijs,
      });
      const body = new Uint8Array(request.toSchema(true).toBER(false));
      out.ocsps.push(
        await read(url, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body }),
      );
    } catch (err) {
      why(url, err);
    }
  }
  for (const url of crlUrlsOf(cert)) {
    try {
      out.crls.push(await read(url, { method: 'GET' }));
    } catch (err) {
      why(url, err);
    }
  }
  return out;
}
