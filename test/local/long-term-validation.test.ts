// PAdES B-LTA: the seal, then the DSS with the chains' certificates and revocation data, then an
// archive document timestamp, against the local CA's publication point (CRL, OCSP) and TSA
// stand-in. Checked by tools we did not write: pdfsig (the seal, the whole document signed by the
// last signature), openssl ts (the archive timestamp over its byte ranges), openssl crl and ocsp
// (the revocation data the DSS holds, against the local root).
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, type TLocalCa } from '#infra/local/local-ca';
import { startPkiStandin, type TPkiStandin } from '#infra/local/pki-standin';
import { startTsaStandin, type TTsaStandin } from '#infra/local/tsa-standin';
import { createEvidencePdf } from '#shared/adapters/pdf/evidence-pdf';
import { createTsaTimestamper } from '#shared/adapters/timestamps/tsa-timestamper';
import { createValidationDataCollector } from '#shared/adapters/validation/collect-validation-data';
import type { TConfig } from '#shared/config';
import { ValidationDataUnavailableError } from '#shared/domain/errors';
import { vriKey } from '#shared/pdf/dss';
import { addLongTermValidation, lastSignatureContents, lastSignatureDer } from '#shared/pdf/ltv';
import { readSeal } from '#shared/pdf/read-seal';
import { newSealIdentity, sealPdf, type TSealIdentity } from '#shared/pdf/seal';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';
import { archiveTimestampOf, opensslVerifyTimestampOf } from '../helpers/seal-timestamp';

let dir: string;
let pki: TPkiStandin;
let ca: TLocalCa;
let tsa: TTsaStandin;
let seal: TSealIdentity;

const info = { reason: 'Final document', name: 'B-LTA test' };
const configOf = (): TConfig => ({
  stage: 'test',
  region: 'us-east-1',
  tableName: '',
  bucketName: '',
  usagePlanId: '',
  logLevel: 'silent',
  endpoints: {},
  fetch: { allowHttp: true, allowLoopback: true },
  timestamps: { tsas: [{ url: tsa.url }] },
});
const sealLta = async (config = configOf()) =>
  Buffer.from(await createEvidencePdf({ get: async () => seal }, config).seal(await aPdf(), info));

const write = (name: string, bytes: Buffer | string) => {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
};
const rootPem = () => write('root.pem', ca.root.toString('pem'));

/** Each signature's byte ranges and /Contents DER, in file order. */
function signatures(pdf: Buffer): { ranges: Buffer; der: Buffer; end: number }[] {
  const text = pdf.toString('latin1');
  const out: { ranges: Buffer; der: Buffer; end: number }[] = [];
  for (const m of text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)/g)) {
    const [a, b, c, d] = m.slice(1).map(Number) as [number, number, number, number];
    const der = lastSignatureDer(pdf.subarray(0, c + d));
    out.push({ ranges: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]), der, end: c + d });
  }
  return out;
}

/** The DSS as stored: each array's streams decoded, and the VRI keys. */
async function dssOf(pdf: Buffer) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) => {
    const array = dss.lookupMaybe(PDFName.of(key), PDFArray);
    return (array?.asArray() ?? []).map((ref) => {
      const stream = doc.context.lookup(ref as PDFRef) as PDFRawStream;
      return Buffer.from(decodePDFRawStream(stream).decode());
    });
  };
  const vri = dss.lookup(PDFName.of('VRI'), PDFDict);
  return {
    certs: streams('Certs').map((d) => new x509.X509Certificate(d)),
    ocsps: streams('OCSPs'),
    crls: streams('CRLs'),
    vriKeys: vri.keys().map((k) => k.decodeText()),
  };
}

/** A CMS SignedData that carries `certificate`, as a seal's does (no signer: only its certificates are read). */
function cmsCarrying(certificate: x509.X509Certificate): Buffer {
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
    certificates: [pkijs.Certificate.fromBER(certificate.rawData)],
  });
  return Buffer.from(
    new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signedData.toSchema(true) })
      .toSchema()
      .toBER(false),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-lta-'));
  pki = await startPkiStandin();
  ca = await loadLocalCa(undefined, { pkiUrl: pki.url });
  pki.serve(ca);
  tsa = await startTsaStandin({ ca });
  seal = newSealIdentity('B-LTA test seal');
});
afterAll(async () => {
  await tsa?.stop();
  await pki?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a seal at PAdES B-LTA', () => {
  let sealed: Buffer;
  beforeAll(async () => {
    sealed = await sealLta();
  });

  it('keeps the seal valid and ends in an archive timestamp over the whole file (pdfsig)', () => {
    const out = pdfsig(sealed);
    const [, first, second] = out.split(/Signature #\d+:/);
    expect(first).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
    expect(first).toMatch(/Signature Validation: Signature is Valid/);
    // The seal was made over the file before the DSS and the archive timestamp were added.
    expect(first).toMatch(/Not total document signed/);
    expect(second).toMatch(/Signer Certificate Common Name: Open eSignature local timestamp authority/);
    expect(second).toMatch(/Total document signed/);
    expect(readSeal(sealed)).toMatchObject({
      valid: true,
      coversWholeFile: true,
      signerName: 'B-LTA test seal',
    });
  });

  it('carries an archive timestamp that openssl verifies over its byte ranges, against the local root', () => {
    expect(signatures(sealed)).toHaveLength(2);
    const archive = archiveTimestampOf(sealed)!;
    expect(opensslVerifyTimestampOf(archive.token, archive.data, ca.root.toString('pem'))).toMatch(
      /Verification: OK/,
    );
  });

  it('holds every certificate of both chains and a CRL for the timestamp authority, valid under the root', async () => {
    const dss = await dssOf(sealed);
    const subjects = dss.certs.map((c) => c.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'CN=B-LTA test seal',
        'CN=Open eSignature local timestamp authority, O=Local runtime',
        ca.root.subject,
      ]),
    );
    // The TSA certificate names a CRL and no responder: its status is the root's CRL.
    expect(dss.ocsps).toHaveLength(0);
    expect(dss.crls).toHaveLength(1);
    const crl = spawnSync(
      'openssl',
      ['crl', '-inform', 'DER', '-in', write('dss.crl', dss.crls[0]!), '-CAfile', rootPem(), '-noout'],
      { encoding: 'utf8' },
    );
    expect(crl.stderr + crl.stdout).toMatch(/verify OK/);
    // The VRI entry is keyed on the seal's /Contents as stored, its zero padding included.
    const seal = signatures(sealed)[0]!;
    const contents = lastSignatureContents(sealed.subarray(0, seal.end));
    expect(contents.length).toBeGreaterThan(seal.der.length);
    expect(dss.vriKeys).toEqual([vriKey(contents)]);
  });

  it('breaks when any byte changes: in the sealed document, or in the validation data after it', async () => {
    // In the document the seal covers.
    const early = Buffer.from(sealed);
    const at = early.indexOf('hello');
    const target = at > 0 ? at : 200;
    early[target] = early[target]! ^ 0x01;
    expect(readSeal(early)).toMatchObject({ valid: false });
    expect(pdfsig(early)).toMatch(/Signature is Invalid|Digest Mismatch/);
    // In the DSS, after the seal and before the archive timestamp.
    const late = Buffer.from(sealed);
    const dssAt = late.indexOf('/VRI');
    expect(dssAt).toBeGreaterThan(0);
    late[dssAt + 1] = 'W'.charCodeAt(0);
    expect(readSeal(late)).toMatchObject({
      valid: false,
      problem: 'the bytes an archive timestamp covers were changed',
    });
    const tampered = archiveTimestampOf(late)!;
    expect(() => opensslVerifyTimestampOf(tampered.token, tampered.data, ca.root.toString('pem'))).toThrow();
  });
});

describe('the local CA’s OCSP responder', () => {
  it('answers good for a certificate it issued, revoked once the operator revokes it; openssl checks both', async () => {
    const issued = await ca.issue('CN=OCSP test seal', [
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
        true,
      ),
      ...ca.revocationExtensions({ ocsp: true }),
    ]);
    const cms = cmsCarrying(issued.certificate);
    const get = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    const data = await createValidationDataCollector(get, { cacheMs: 0 }).collect(cms);
    expect(data.ocsps).toHaveLength(1);
    expect(data.crls).toHaveLength(0);
    expect(data.certificates.length).toBe(2); // the seal's and the root, fetched from caIssuers
    const cert = write('ocsp-seal.pem', issued.certificate.toString('pem'));
    const ocsp = (resp: Buffer) =>
      spawnSync(
        'openssl',
        [
          'ocsp',
          '-respin',
          write('resp.der', resp),
          '-issuer',
          rootPem(),
          '-CAfile',
          rootPem(),
          '-cert',
          cert,
        ],
        { encoding: 'utf8' },
      );
    const good = ocsp(data.ocsps[0]!);
    expect(good.stderr + good.stdout).toMatch(/Response verify OK/);
    expect(good.stdout).toMatch(/: good/);

    ca.revoke(issued.certificate.serialNumber);
    const refused = await createValidationDataCollector(get, { cacheMs: 0 })
      .collect(cms)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationDataUnavailableError);
    expect((refused as ValidationDataUnavailableError).failures).toEqual([
      { certificate: 'CN=OCSP test seal', reason: 'revoked (OCSP)' },
    ]);
    // The responder's own answer, as openssl reads it.
    const request = new pkijs.OCSPRequest();
    await request.createForCertificate(pkijs.Certificate.fromBER(issued.certificate.rawData), {
      hashAlgorithm: 'SHA-1',
      issuerCertificate: pkijs.Certificate.fromBER(ca.root.rawData),
    });
    const res = await fetch(`${pki.url}/ocsp`, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request' },
      body: Buffer.from(request.toSchema(true).toBER(false)),
    });
    expect(res.headers.get('content-type')).toBe('application/ocsp-response');
    const revoked = ocsp(Buffer.from(await res.arrayBuffer()));
    expect(revoked.stderr + revoked.stdout).toMatch(/Response verify OK/);
    expect(revoked.stdout).toMatch(/: revoked/);
  });
});

describe('a seal whose validation data cannot be had', () => {
  it('is not written when the timestamp authority’s certificate is revoked, and says which and why', async () => {
    const own = await loadLocalCa(undefined, { pkiUrl: pki.url });
    // The publication point answers for this CA while the test runs.
    pki.serve(own);
    const ownTsa = await startTsaStandin({ ca: own });
    try {
      own.revoke(own.tsa.certificate.serialNumber);
      const failure = await sealLta({ ...configOf(), timestamps: { tsas: [{ url: ownTsa.url }] } }).catch(
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ValidationDataUnavailableError);
      expect((failure as Error).message).toMatch(
        /CN=Open eSignature local timestamp authority, O=Local runtime: revoked on \d{4}-\d\d-\d\dT.*\(CRL\)/,
      );
    } finally {
      await ownTsa.stop();
      pki.serve(ca);
    }
  });

  it('is not written when the CA’s publication point is down, and names the URL that failed', async () => {
    const down = await startPkiStandin();
    const elsewhere = await loadLocalCa(undefined, { pkiUrl: down.url });
    down.serve(elsewhere);
    const otherTsa = await startTsaStandin({ ca: elsewhere });
    await down.stop();
    try {
      const failure = await sealLta({ ...configOf(), timestamps: { tsas: [{ url: otherTsa.url }] } }).catch(
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ValidationDataUnavailableError);
      expect((failure as Error).message).toContain(`${down.url}/root.crt`);
    } finally {
      await otherTsa.stop();
    }
  });
});

describe('an archive timestamp from another authority than the seal’s', () => {
  it('brings that authority’s chain and revocation data into the DSS before it is kept', async () => {
    const otherPki = await startPkiStandin();
    const otherCa = await loadLocalCa(undefined, { pkiUrl: otherPki.url });
    otherPki.serve(otherCa);
    const otherTsa = await startTsaStandin({ ca: otherCa });
    try {
      const get = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
      const stampBy = (standin: TTsaStandin) => async (imprint: Buffer) =>
        (await createTsaTimestamper([{ url: standin.url }]).timestamp(imprint)).token;
      // The seal is stamped by the first authority; every later stamp (the archive timestamp)
      // comes from the second, as when the first stops answering in between.
      const sealed = Buffer.from(await sealPdf(await aPdf(), seal, info, stampBy(tsa)));
      let archiveStamps = 0;
      const out = await addLongTermValidation(sealed, {
        validation: createValidationDataCollector(get, { cacheMs: 0 }),
        stamp: async (imprint) => {
          archiveStamps++;
          return stampBy(otherTsa)(imprint);
        },
      });
      // Made again once the second authority's data was in the DSS.
      expect(archiveStamps).toBe(2);
      const dss = await dssOf(out);
      expect(dss.certs.map((c) => c.subject)).toEqual(
        expect.arrayContaining([ca.root.subject, otherCa.root.subject]),
      );
      expect(dss.crls).toHaveLength(2);
      const archive = archiveTimestampOf(out)!;
      expect(opensslVerifyTimestampOf(archive.token, archive.data, otherCa.root.toString('pem'))).toMatch(
        /Verification: OK/,
      );
      expect(readSeal(out)).toMatchObject({ valid: true, coversWholeFile: true });
    } finally {
      await otherTsa.stop();
      await otherPki.stop();
    }
  });
});

describe('revocation data that does not check out', () => {
  it('is refused: a CRL or an OCSP answer signed by another CA than the certificate’s issuer', async () => {
    const otherPki = await startPkiStandin();
    const otherCa = await loadLocalCa(undefined, { pkiUrl: otherPki.url });
    otherPki.serve(otherCa);
    try {
      const real = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
      // Every CRL and OCSP request goes to the other CA's publication point instead.
      const forged = (url: string) =>
        real(/\/(root\.crl|ocsp\/)/.test(url) ? url.replace(pki.url, otherPki.url) : url);
      const sealed = Buffer.from(
        await sealPdf(
          await aPdf(),
          seal,
          info,
          async (imprint) => (await createTsaTimestamper([{ url: tsa.url }]).timestamp(imprint)).token,
        ),
      );
      const crlFailure = await createValidationDataCollector(forged, { cacheMs: 0 })
        .collect(lastSignatureDer(sealed))
        .catch((err: unknown) => err);
      expect(crlFailure).toBeInstanceOf(ValidationDataUnavailableError);
      expect((crlFailure as Error).message).toMatch(/root\.crl: the CRL is not signed by the issuer/);

      const issued = await ca.issue('CN=Forged OCSP test', [...ca.revocationExtensions({ ocsp: true })]);
      const cms = cmsCarrying(issued.certificate);
      const ocspFailure = await createValidationDataCollector(forged, { cacheMs: 0 })
        .collect(cms)
        .catch((err: unknown) => err);
      expect((ocspFailure as Error).message).toMatch(
        /ocsp: the OCSP answer is not signed by the issuer or its responder/,
      );
    } finally {
      await otherPki.stop();
    }
  });
});
