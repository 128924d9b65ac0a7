// The offline verifier on files sealed by the service's own code (sealPdf, the local TSA and CA):
// what passes, and which check fails for each way a file can be wrong. pdfsig and openssl, tools
// we did not write, are asked the same questions where they can answer them.
import 'reflect-metadata';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, type TLocalCa } from '#infra/local/local-ca';
import { startTsaStandin, type TTsaStandin } from '#infra/local/tsa-standin';
import { createTsaTimestamper } from '#shared/adapters/timestamps/tsa-timestamper';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import type { TVerifyReport } from '#shared/verify/report';
import { UnreadablePdfError, verifyPdf } from '#shared/verify/verify-pdf';
import { withDss } from '../helpers/add-dss';
import { withDocTimestamp } from '../helpers/doc-timestamp';
import { anOcspResponse } from '../helpers/ocsp-response';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';
import { opensslVerifyTimestamp, signatureTimestampOf } from '../helpers/seal-timestamp';

let dir: string;
let ca: TLocalCa;
let tsa: TTsaStandin;
const identity = newSealIdentity('Verifier test seal');
const sealCert = new X509Certificate(identity.certificatePem).raw;
const info = { reason: 'Final document', name: 'Open eSignature service', location: 'local' };
let stamped: Uint8Array;
let stamp: (imprint: Buffer) => Promise<Buffer>;
let unstamped: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-verify-'));
  ca = await loadLocalCa();
  tsa = await startTsaStandin({ ca });
  const timestamper = createTsaTimestamper([{ url: tsa.url }]);
  stamp = async (imprint: Buffer) => (await timestamper.timestamp(imprint)).token;
  stamped = await sealPdf(await aPdf(), identity, info, stamp);
  unstamped = await sealPdf(await aPdf(), identity, info);
});
afterAll(async () => {
  await tsa?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rootDer = () => new Uint8Array(ca.root.rawData);
const statusOf = (r: TVerifyReport, id: string) => r.checks.find((c) => c.id === id)?.status;
const failed = (r: TVerifyReport) => r.checks.filter((c) => c.status === 'fail').map((c) => c.id);

describe('a sealed file as the service writes it', () => {
  it('passes every check of a B-T seal, with the seal certificate and the local root trusted', async () => {
    const r = await verifyPdf(stamped, { trust: [sealCert, rootDer()] });
    expect(failed(r)).toEqual([]);
    expect(r.result).toBe('pass');
    expect(r.signatures).toHaveLength(1);
    const [seal] = r.signatures;
    expect(seal).toMatchObject({
      kind: 'signature',
      field: 'Seal',
      subFilter: 'ETSI.CAdES.detached',
      digestMatches: true,
      signatureValid: true,
      coversWholeFile: true,
      reason: 'Final document',
    });
    expect(seal!.signer!.subject).toBe('CN=Verifier test seal');
    expect(seal!.timestamp).toMatchObject({
      imprintMatches: true,
      signatureValid: true,
      timeStampingUsage: true,
      tsa: 'CN=Open eSignature local timestamp authority, O=Local runtime',
    });
    // openssl finds the same token valid over the same signature value, at the same time.
    const token = signatureTimestampOf(stamped)!;
    const verdict = opensslVerifyTimestamp(token.token, token.imprint, ca.root.toString('pem'));
    expect(verdict).toMatch(/Verification: OK/);
    // The timestamp's chain is completed by the trusted root, which the token does not carry.
    const tsaChain = r.chains.find((c) => c.for === 'the timestamp of signature 1')!;
    expect(tsaChain.certificates.map((c) => c.subject)).toEqual([
      'CN=Open eSignature local timestamp authority, O=Local runtime',
      'CN=Open eSignature local root CA, O=Local runtime',
    ]);
    expect(tsaChain).toMatchObject({ complete: true, signaturesValid: true, trusted: true });
    expect(r.evidenceRecord).toEqual({ status: 'none embedded' });
    expect(pdfsig(stamped)).toMatch(/Signature is Valid/);
  });

  it('passes a B-B seal, saying its time is the signer’s own claim', async () => {
    const r = await verifyPdf(unstamped, { trust: [sealCert] });
    expect(r.result).toBe('pass');
    expect(r.signatures[0]!.timestamp).toBeNull();
    expect(r.checks.find((c) => c.id === 'signature-1.timestamp')).toMatchObject({
      status: 'info',
      title: expect.stringMatching(/no signature timestamp \(PAdES B-B\)/),
    });
  });

  it('without --trust, shows each root and its fingerprint as not checked, and still passes', async () => {
    const r = await verifyPdf(unstamped);
    expect(r.result).toBe('pass');
    expect(r.chains[0]!.trusted).toBeNull();
    const trust = r.checks.find((c) => c.id === 'chain-1.trust')!;
    expect(trust.status).toBe('info');
    expect(trust.title).toMatch(/root CN=Verifier test seal was not checked against a trust list/);
    expect(r.checks.find((c) => c.id === 'chain-1.path')!.title).toContain(
      new X509Certificate(sealCert).fingerprint256,
    );
  });
});

describe('a file that does not verify', () => {
  it('fails the digest when a signed byte is changed', async () => {
    const changed = Buffer.from(stamped);
    // The binary comment on the header's second line: a byte no PDF reader needs.
    expect(changed[10]).toBeGreaterThan(0x7f);
    changed[10] = changed[10]! ^ 0x01;
    const r = await verifyPdf(changed, { trust: [sealCert, rootDer()] });
    expect(r.result).toBe('fail');
    // The signature over the signed attributes still holds: it is their digest that no longer matches.
    expect(failed(r)).toEqual(['signature-1.digest']);
    expect(r.checks.find((c) => c.id === 'signature-1.digest')!.title).toMatch(/were changed after signing/);
    expect(pdfsig(changed)).not.toMatch(/Signature is Valid/);
  });

  it('says a /ByteRange that does not frame its /Contents is the signature’s problem, whatever its name', async () => {
    const broken = Buffer.from(unstamped);
    const text = broken.toString('latin1');
    const at = text.lastIndexOf('/ByteRange');
    const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(text.slice(at))!;
    // The last length pointed past the end of the file, digit for digit, so nothing else moves.
    const last = range[4]!;
    const from = at + range.index + range[0].length - last.length;
    broken.write('9'.repeat(last.length), from, 'latin1');
    const r = await verifyPdf(broken, { trust: [sealCert, rootDer()] });
    expect(r.result).toBe('fail');
    expect(r.signatures[0]!.problem).toBe('its /ByteRange does not frame its /Contents within the file');
  });

  it('says the seal does not cover the whole file when a byte is appended', async () => {
    const appended = Buffer.concat([Buffer.from(stamped), Buffer.from('x')]);
    const r = await verifyPdf(appended, { trust: [sealCert, rootDer()] });
    expect(failed(r)).toEqual(['signature-1.coverage']);
    expect(r.checks.find((c) => c.id === 'signature-1.coverage')!.title).toMatch(
      /does not cover the whole file: 1 byte was added after it/,
    );
    expect(r.signatures[0]).toMatchObject({
      digestMatches: true,
      signatureValid: true,
      coversWholeFile: false,
    });
  });

  it('fails trust when the root passed is not the one the chain ends at', async () => {
    const other = await loadLocalCa();
    const r = await verifyPdf(stamped, { trust: [new Uint8Array(other.root.rawData)] });
    expect(r.result).toBe('fail');
    expect(statusOf(r, 'chain-1.trust')).toBe('fail');
    expect(r.chains.every((c) => c.trusted === false)).toBe(true);
    expect(r.checks.find((c) => c.id === 'chain-1.trust')!.next).toMatch(/--trust/);
  });

  it('fails a file without any signature, and refuses one that is not a PDF', async () => {
    const r = await verifyPdf(await aPdf());
    expect(r.result).toBe('fail');
    expect(failed(r)).toEqual(['signatures']);
    await expect(verifyPdf(Buffer.from('not a pdf at all'))).rejects.toThrow(UnreadablePdfError);
  });
});

describe('several signatures as incremental updates', () => {
  it('checks each, and says which later signature covers the earlier one', async () => {
    const twice = await sealPdf(stamped, newSealIdentity('Second seal'), info);
    const r = await verifyPdf(twice);
    expect(r.signatures.map((s) => [s.signer?.subject, s.digestMatches, s.signatureValid])).toEqual([
      ['CN=Verifier test seal', true, true],
      ['CN=Second seal', true, true],
    ]);
    expect(r.signatures[0]).toMatchObject({ coversWholeFile: false, coveredBy: [2] });
    expect(statusOf(r, 'signature-1.coverage')).toBe('pass');
    expect(statusOf(r, 'signature-2.coverage')).toBe('pass');
    expect(failed(r)).toEqual([]);
  });
});

describe('revocation data in a DSS', () => {
  const crlOf = async (revoked: string[]) =>
    Buffer.from(
      (
        await x509.X509CrlGenerator.create({
          issuer: ca.root.subject,
          thisUpdate: new Date(Date.now() - 60_000),
          nextUpdate: new Date(Date.now() + 7 * 24 * 3600_000),
          entries: revoked.map((serialNumber) => ({ serialNumber, revocationDate: new Date() })),
          signingKey: ca.rootKey,
          signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
        })
      ).rawData,
    );
  const vriKeyOf = (pdf: Uint8Array) => {
    const r = /\/Contents\s*<([0-9A-Fa-f]+)>/.exec(Buffer.from(pdf).toString('latin1'))!;
    return createHash('sha1').update(Buffer.from(r[1]!, 'hex')).digest('hex').toUpperCase();
  };

  it('reads the DSS, completes the chain from its certificates and finds the TSA good in its CRL', async () => {
    const withRevocationData = await withDss(stamped, {
      certs: [Buffer.from(ca.root.rawData)],
      crls: [await crlOf([])],
      vriKeys: [vriKeyOf(stamped)],
    });
    // The seal stays valid for pdfsig: the DSS came after it as an incremental update.
    expect(pdfsig(withRevocationData)).toMatch(/Signature is Valid/);
    const r = await verifyPdf(withRevocationData, { trust: [sealCert, rootDer()] });
    expect(r.dss).toMatchObject({
      certs: [{ subject: 'CN=Open eSignature local root CA, O=Local runtime' }],
      crls: [{ issuer: 'CN=Open eSignature local root CA, O=Local runtime', entries: 0 }],
      vri: [{ signature: 1 }],
    });
    expect(r.checks.find((c) => c.id === 'signature-1.coverage')).toMatchObject({
      status: 'pass',
      title: expect.stringMatching(/only revocation data \(a DSS\) was added/),
    });
    const tsaChain = r.chains.find((c) => c.for === 'the timestamp of signature 1')!;
    expect(tsaChain.revocation).toEqual([
      {
        subject: 'CN=Open eSignature local timestamp authority, O=Local runtime',
        inFile: expect.objectContaining({
          status: 'good',
          source: 'CRL signed by Open eSignature local root CA',
        }),
        online: null,
      },
    ]);
    expect(failed(r)).toEqual([]);
    // Without a trust list the root now comes from the file itself: the chain is complete.
    const untrusted = await verifyPdf(withRevocationData);
    expect(untrusted.chains.find((c) => c.for === 'the timestamp of signature 1')!.complete).toBe(true);
  });

  it('fails when the CRL revokes the TSA certificate', async () => {
    const serial = ca.tsa.certificate.serialNumber;
    const r = await verifyPdf(
      await withDss(stamped, { certs: [Buffer.from(ca.root.rawData)], crls: [await crlOf([serial])] }),
      {
        trust: [sealCert, rootDer()],
      },
    );
    expect(r.result).toBe('fail');
    const revocation = r.checks.find((c) => c.status === 'fail')!;
    expect(revocation.id).toMatch(/^chain-\d\.revocation$/);
    expect(revocation.title).toMatch(/Open eSignature local timestamp authority is revoked since/);
  });

  it('ignores a CRL signed by another key than its issuer’s, and warns that no valid data is in the file', async () => {
    const other = await loadLocalCa();
    const forged = Buffer.from(
      (
        await x509.X509CrlGenerator.create({
          issuer: ca.root.subject,
          entries: [],
          signingKey: other.rootKey,
          signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
        })
      ).rawData,
    );
    const r = await verifyPdf(
      await withDss(stamped, { certs: [Buffer.from(ca.root.rawData)], crls: [forged] }),
      {
        trust: [sealCert, rootDer()],
      },
    );
    const tsaChain = r.chains.find((c) => c.for === 'the timestamp of signature 1')!;
    expect(tsaChain.revocation[0]!.inFile.status).toBe('none');
    expect(statusOf(r, `chain-${tsaChain.index}.revocation`)).toBe('warn');
    expect(r.result).toBe('pass');
  });

  it('takes an OCSP response signed by the issuer, good or revoked, and ignores a forged one', async () => {
    const ocsp = (status: Parameters<typeof anOcspResponse>[0]['status'], signingKey = ca.rootKey) =>
      anOcspResponse({ cert: ca.tsa.certificate.rawData, issuer: ca.root.rawData, signingKey, status });
    const tsaRevocation = async (ocsps: Buffer[]) => {
      const r = await verifyPdf(await withDss(stamped, { certs: [Buffer.from(ca.root.rawData)], ocsps }), {
        trust: [sealCert, rootDer()],
      });
      return {
        r,
        inFile: r.chains.find((c) => c.for === 'the timestamp of signature 1')!.revocation[0]!.inFile,
      };
    };
    const good = await tsaRevocation([await ocsp('good')]);
    expect(good.inFile).toMatchObject({
      status: 'good',
      source: 'OCSP response signed by Open eSignature local root CA',
    });
    expect(good.r.dss!.ocsps).toHaveLength(1);
    expect(good.r.result).toBe('pass');
    const revokedAt = new Date('2030-05-06T07:08:09Z');
    const revoked = await tsaRevocation([await ocsp({ revokedAt })]);
    expect(revoked.inFile).toMatchObject({ status: 'revoked', revokedAt: revokedAt.toISOString() });
    expect(revoked.r.result).toBe('fail');
    expect((await tsaRevocation([await ocsp('unknown')])).inFile.status).toBe('unknown');
    const forged = await tsaRevocation([await ocsp('good', (await loadLocalCa()).rootKey)]);
    expect(forged.inFile.status).toBe('none');
  });

  it('does not take a later change other than a DSS as allowed', async () => {
    const withRevocationData = await withDss(stamped, { crls: [await crlOf([])] });
    // The same update, with the catalog also changed beyond its /DSS.
    const tampered = Buffer.from(
      withRevocationData.toString('latin1').replace(/\/DSS (\d+) 0 R/, '/DSS $1 0 R /Lang (xx)'),
      'latin1',
    );
    const r = await verifyPdf(tampered);
    expect(statusOf(r, 'signature-1.coverage')).toBe('fail');
  });
});

describe('a document timestamp over a DSS (the shape of PAdES B-LTA)', () => {
  it('is checked as a timestamp over its byte ranges, and covers the seal and the DSS before it', async () => {
    const withRevocationData = await withDss(stamped, { certs: [Buffer.from(ca.root.rawData)] });
    const lta = await withDocTimestamp(withRevocationData, stamp);
    const r = await verifyPdf(lta, { trust: [sealCert, rootDer()] });
    expect(r.signatures.map((s) => s.kind)).toEqual(['signature', 'document timestamp']);
    expect(r.signatures[1]).toMatchObject({
      subFilter: 'ETSI.RFC3161',
      digestMatches: true,
      signatureValid: true,
      coversWholeFile: true,
      signer: { subject: 'CN=Open eSignature local timestamp authority, O=Local runtime' },
    });
    expect(r.signatures[0]).toMatchObject({ coversWholeFile: false, coveredBy: [2] });
    expect(r.chains.find((c) => c.for.includes('document timestamp 2'))).toMatchObject({
      complete: true,
      trusted: true,
    });
    expect(failed(r)).toEqual([]);

    // A byte changed in the DSS revision: the seal still holds over its own, the timestamp does not.
    const text = Buffer.from(lta).toString('latin1');
    const changed = Buffer.from(lta);
    const at = text.indexOf('/VRI');
    changed.write('/VRJ', at, 'latin1');
    const after = await verifyPdf(changed, { trust: [sealCert, rootDer()] });
    expect(after.signatures[0]!.digestMatches).toBe(true);
    expect(failed(after)).toContain('signature-2.digest');
    expect(failed(after)).toContain('signature-1.coverage');
  });
});
