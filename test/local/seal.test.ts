// Sealed files checked from outside the project: poppler's pdfsig validates the PAdES seal
// (a self-signed seal is "Signature is Valid" with an issuer it does not know, as expected of a
// local certificate), and the pages are saved as PNGs in test-artifacts/ to be looked at.
import { KeyObject, sign, X509Certificate } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, sealExtensions } from '#infra/local/local-ca';
import { renderCertificate } from '#shared/pdf/certificate';
import { renderFinalDocument } from '#shared/pdf/final-document';
import { newSealIdentity, sealPdf, type TSealIdentity } from '#shared/pdf/seal';
import { aCertificateInput, aContractPdf, anAuditPage, contractFields } from '../helpers/evidence';
import { aPdf } from '../helpers/pdfs';
import { pageGrey, pdfsig, savePagePng, textOf } from '../helpers/poppler';
import {
  opensslCmsCertificates,
  opensslCmsVerify,
  opensslSignerAlgorithm,
  sealCmsOf,
} from '../helpers/seal-cms';

const ARTIFACTS = path.join(import.meta.dirname, '../../test-artifacts');
const info = {
  reason: 'Final document of bundle Xk3pQ9rT2w',
  name: 'Open eSignature service',
  location: 'eu-west-1',
};

let identity: TSealIdentity;
beforeAll(() => {
  identity = newSealIdentity('Open eSignature service seal (test)');
});

const finalDocument = async (overrides: Partial<Parameters<typeof renderFinalDocument>[0]> = {}) =>
  renderFinalDocument({
    original: await aContractPdf(),
    fields: contractFields(),
    audit: anAuditPage({ sealedBy: identity.commonName }),
    isTest: false,
    interim: false,
    ...overrides,
  });

/** The lines of pdfsig's report for the signature numbered `n` (1-based). */
function signatureReport(report: string, n = 1): string {
  const parts = report.split(/Signature #\d+:/);
  return parts[n] ?? '';
}

describe('sealPdf', () => {
  it('seals a final document with a PAdES signature that pdfsig finds valid over the whole file', async () => {
    const sealed = await sealPdf(await finalDocument(), identity, info);
    const report = signatureReport(pdfsig(sealed));
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signing Hash Algorithm: SHA-256');
    expect(report).toContain('Total document signed');
    expect(report).toContain(`Signer Certificate Common Name: ${identity.commonName}`);
  });

  it('keeps the rendered bytes as they are: the seal is an incremental update after them', async () => {
    const rendered = await finalDocument();
    const sealed = await sealPdf(rendered, identity, info);
    expect(Buffer.from(sealed.subarray(0, rendered.length)).equals(Buffer.from(rendered))).toBe(true);
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(3);
    expect(textOf(sealed)).toContain('Zoë Ørsted — Ĳssel');
  });

  it('is invalid once one byte inside the signed range changes', async () => {
    const sealed = Buffer.from(await sealPdf(await finalDocument(), identity, info));
    // The header's version digit: the file still parses, but its bytes are not the ones signed.
    expect(sealed.subarray(0, 8).toString('latin1')).toMatch(/^%PDF-1\.\d/);
    sealed[7] = sealed[7] === 0x37 ? 0x36 : 0x37;
    const report = signatureReport(pdfsig(sealed));
    expect(report).toContain('Signature Validation:');
    expect(report).not.toContain('Signature is Valid.');
  });

  it('seals a certificate of evidence the same way', async () => {
    const sealed = await sealPdf(
      await renderCertificate(aCertificateInput({ sealedBy: identity.commonName })),
      identity,
      { ...info, reason: 'Certificate of Evidence' },
    );
    expect(signatureReport(pdfsig(sealed))).toContain('Signature is Valid.');
  });

  it('seals a PDF it did not render (cross-reference stream) by rewriting it once first', async () => {
    const original = await aPdf({ pages: [{ size: 'A4' }, { size: 'Letter' }] }); // pdf-lib's default: object streams
    expect(Buffer.from(original).includes('/XRef')).toBe(true);
    const report = signatureReport(pdfsig(await sealPdf(original, identity, info)));
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
  });

  it('adds a second seal after the first, both valid, the last covering the whole file', async () => {
    const once = await sealPdf(await finalDocument(), identity, info);
    const other = newSealIdentity('Another seal');
    const report = pdfsig(await sealPdf(once, other, { ...info, reason: 'Countersealed' }));
    expect(signatureReport(report, 1)).toContain('Signature is Valid.');
    expect(signatureReport(report, 2)).toContain('Signature is Valid.');
    expect(signatureReport(report, 2)).toContain('Total document signed');
    expect(signatureReport(report, 2)).toContain('Common Name: Another seal');
  });

  it('leaves interim files unsealed: they carry no signature at all', async () => {
    const interim = await finalDocument({ interim: true });
    expect(pdfsig(interim)).toMatch(/does not contain any signatures/);
  });
});

describe('the CMS of a seal', () => {
  it('is RSA with the certificate for a PKCS #12 identity, as openssl cms -verify accepts', async () => {
    const { cms, signed } = sealCmsOf(await sealPdf(await aPdf(), identity, info));
    expect(opensslCmsVerify(cms, signed, identity.certificatePem)).toContain('Verification successful');
    expect(opensslSignerAlgorithm(cms)).toBe('rsaEncryption');
    expect(opensslCmsCertificates(cms)).toEqual([
      { subject: `CN=${identity.commonName}`, issuer: `CN=${identity.commonName}` },
    ]);
  });

  it('is ECDSA (ecdsa-with-SHA256) for an ECDSA signer, and carries its whole chain', async () => {
    const ca = await loadLocalCa();
    const issued = await ca.issue('CN=ECDSA seal, O=Test', sealExtensions());
    const key = KeyObject.from(issued.privateKey);
    const sealed = await sealPdf(
      await aPdf(),
      {
        commonName: 'ECDSA seal',
        chain: [Buffer.from(issued.certificate.rawData), Buffer.from(ca.root.rawData)],
        algorithm: 'ECDSA_SHA_256',
        sign: async (data) => sign('sha256', data, key),
      },
      info,
    );
    const report = signatureReport(pdfsig(sealed));
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: ECDSA seal');
    const { cms, signed } = sealCmsOf(sealed);
    expect(opensslSignerAlgorithm(cms)).toBe('ecdsa-with-SHA256');
    expect(opensslCmsVerify(cms, signed, ca.root.toString('pem'))).toContain('Verification successful');
    expect(
      opensslCmsCertificates(cms)
        .map((c) => c.subject)
        .sort(),
    ).toEqual(['CN=ECDSA seal, O=Test', 'CN=Open eSignature local root CA, O=Local runtime']);
  });
});

describe('newSealIdentity', () => {
  it('makes a self-signed RSA 3072 certificate for the name, valid for the years asked, in a PKCS #12', () => {
    const made = newSealIdentity('Zoë Seal', 2);
    const cert = new X509Certificate(made.certificatePem);
    expect(cert.subject).toBe('CN=Zoë Seal');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    const years = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / (365.25 * 24 * 3600_000);
    expect(years).toBeGreaterThan(1.99);
    expect(years).toBeLessThan(2.01);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(made.p12.length).toBeGreaterThan(1000);
    expect(made.passphrase.length).toBeGreaterThanOrEqual(24);
    expect(newSealIdentity('Zoë Seal').passphrase).not.toBe(made.passphrase);
  });

  it('refuses to seal with a certificate that is not the key’s', async () => {
    const other = newSealIdentity('Other');
    const mixed = { ...identity, certificatePem: other.certificatePem };
    await expect(sealPdf(await aPdf(), mixed, info)).rejects.toThrow(/does not belong/);
  });
});

describe('how the evidence looks', () => {
  // The final document, its audit page and the certificate are pictured by the evidence HTTP
  // test from the real pipeline; this one pictures a test bundle's page.
  it("marks a test bundle's pages so a person sees it at a glance, and keeps the seal valid", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const plain = await sealPdf(await finalDocument(), identity, info);
    const test = await sealPdf(await finalDocument({ isTest: true }), identity, info);
    expect(pdfsig(test)).toContain('Signature is Valid.');
    const ink = (pdf: Uint8Array) => {
      const g = pageGrey(pdf, 1);
      let dark = 0;
      for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.at(x, y) < 200) dark++;
      return dark;
    };
    expect(ink(test)).toBeGreaterThan(ink(plain));
    savePagePng(test, 1, path.join(ARTIFACTS, 'evidence-test-page-1.png'));
  });
});
