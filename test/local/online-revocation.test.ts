// --online: the revocation data a certificate's CA serves now, fetched from the URLs the
// certificate names, against a CA stand-in on loopback. A CRL that revokes the certificate after
// it signed is how a revoked certificate shows, though the file's own DSS says good.
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, type TLocalCa } from '#infra/local/local-ca';
import { certOf, type TCert } from '#shared/verify/certificates';
import { crlUrlsOf, fetchRevocationData, ocspUrlsOf } from '#shared/verify/online-revocation';
import { revocationStatus } from '#shared/verify/revocation';

let ca: TLocalCa;
let server: Server;
let base: string;
let crl: Buffer = Buffer.alloc(0);
const asked: string[] = [];

beforeAll(async () => {
  ca = await loadLocalCa();
  server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? ''}`.trim());
    if (req.url === '/root.crl') {
      res.writeHead(200, { 'content-type': 'application/pkix-crl' });
      res.end(crl);
    } else {
      res.writeHead(503);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const crlRevoking = async (serials: string[]) =>
  Buffer.from(
    (
      await x509.X509CrlGenerator.create({
        issuer: ca.root.subject,
        thisUpdate: new Date(Date.now() - 60_000),
        nextUpdate: new Date(Date.now() + 24 * 3600_000),
        entries: serials.map((serialNumber) => ({
          serialNumber,
          revocationDate: new Date('2030-01-02T03:04:05Z'),
        })),
        signingKey: ca.rootKey,
        signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      })
    ).rawData,
  );

async function aCertificate(): Promise<{ cert: TCert; issuer: TCert }> {
  const issued = await ca.issue('CN=Online test signer', [
    new x509.CRLDistributionPointsExtension([`${base}/root.crl`, 'ldap://ldap.example/cn=root']),
    new x509.AuthorityInfoAccessExtension({ ocsp: [`${base}/ocsp`] }),
  ]);
  return {
    cert: certOf(new Uint8Array(issued.certificate.rawData))!,
    issuer: certOf(new Uint8Array(ca.root.rawData))!,
  };
}

describe('revocation data fetched now', () => {
  it('reads the http URLs a certificate names, and no others', async () => {
    const { cert } = await aCertificate();
    expect(crlUrlsOf(cert)).toEqual([`${base}/root.crl`]);
    expect(ocspUrlsOf(cert)).toEqual([`${base}/ocsp`]);
  });

  it('finds a certificate revoked by its CA’s current CRL, and says which responder did not answer', async () => {
    const { cert, issuer } = await aCertificate();
    crl = await crlRevoking([cert.x509.serialNumber]);
    asked.length = 0;
    const data = await fetchRevocationData(cert, issuer);
    expect(asked).toEqual(['POST /ocsp application/ocsp-request', 'GET /root.crl']);
    expect(data.problems).toEqual([`${base}/ocsp: HTTP 503`]);
    expect(await revocationStatus(cert, issuer, data)).toEqual({
      status: 'revoked',
      source: 'CRL signed by Open eSignature local root CA',
      sourceSaid: { key: 'verify.checks.sourceCrl', values: { signer: 'Open eSignature local root CA' } },
      revokedAt: '2030-01-02T03:04:05.000Z',
      producedAt: expect.any(String),
    });
  });

  it('answers good when the current CRL does not list it, and none when nothing could be fetched', async () => {
    const { cert, issuer } = await aCertificate();
    crl = await crlRevoking([]);
    expect((await revocationStatus(cert, issuer, await fetchRevocationData(cert, issuer))).status).toBe(
      'good',
    );
    // A CRL of another CA under the same name does not count.
    const other = await loadLocalCa();
    crl = Buffer.from(
      (
        await x509.X509CrlGenerator.create({
          issuer: ca.root.subject,
          signingKey: other.rootKey,
          signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
        })
      ).rawData,
    );
    expect((await revocationStatus(cert, issuer, await fetchRevocationData(cert, issuer))).status).toBe(
      'none',
    );
  });
});
