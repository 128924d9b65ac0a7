// Seals whose key stays in KMS: the KMS seal identity against the local KMS stand-in (the real
// SDK client), with certificates from the local CA. pdfsig and openssl, tools we did not write,
// check the seals, the signer and the chain the CMS carries.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKmsStandin, type TKmsStandin } from '#infra/local/kms-standin';
import { loadLocalCa, sealExtensions, type TLocalCa } from '#infra/local/local-ca';
import { ensureLocalSeal } from '#infra/local/local-seal';
import { createKmsSealIdentity } from '#shared/adapters/sealing/kms-seal-identity';
import { createLocalSealChains } from '#shared/adapters/sealing/local-seal-chains';
import { sealKeyAlias } from '#shared/adapters/sealing/seal-names';
import type { TSealChainStore } from '#shared/domain/ports/evidence';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { isSealSigner, pemOfCertificates, type TSealSigner } from '#shared/pdf/seal-signer';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';
import {
  opensslCmsCertificates,
  opensslCmsVerify,
  opensslSignerAlgorithm,
  sealCmsOf,
} from '../helpers/seal-cms';

const NAME = 'esign-test-seal';
const info = { reason: 'Final document', name: 'Open eSignature service' };

let dir: string;
let standin: TKmsStandin;
let kms: KMSClient;
let ca: TLocalCa;
let chains: TSealChainStore;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kms-seal-'));
  standin = await startKmsStandin({ file: path.join(dir, 'kms.json') });
  kms = new KMSClient({
    region: 'us-east-1',
    endpoint: standin.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  ca = await loadLocalCa(path.join(dir, 'ca'));
  chains = createLocalSealChains(path.join(dir, 'chains'), NAME);
  await ensureLocalSeal({ kms, ca, chains, name: NAME, subject: 'CN=Service seal (test), O=Test' });
}, 60_000);
afterAll(async () => {
  kms?.destroy();
  await standin?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const identity = (fallback?: Parameters<typeof createKmsSealIdentity>[0]['fallback']) =>
  createKmsSealIdentity({
    kms,
    chains,
    keyId: sealKeyAlias(NAME),
    name: NAME,
    ...(fallback ? { fallback } : {}),
  });

/** The lines of pdfsig's report for the last signature. */
const lastSignature = (pdf: Uint8Array) =>
  pdfsig(pdf)
    .split(/Signature #\d+:/)
    .at(-1) ?? '';

describe('a seal made by a KMS key', () => {
  it('is valid to pdfsig, names the seal certificate as signer, and carries the chain to the local root', async () => {
    const signer = (await identity().get()) as TSealSigner;
    expect(signer.algorithm).toBe('RSASSA_PKCS1_V1_5_SHA_256');
    expect(signer.commonName).toBe('Service seal (test)');
    const sealed = await sealPdf(await aPdf(), signer, info);
    const report = lastSignature(sealed);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Service seal (test)');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');

    const { cms, signed } = sealCmsOf(sealed);
    expect(opensslCmsVerify(cms, signed, ca.root.toString('pem'))).toContain('Verification successful');
    expect(opensslSignerAlgorithm(cms)).toBe('rsaEncryption');
    const certs = opensslCmsCertificates(cms);
    expect(certs).toHaveLength(2);
    const seal = certs.find((c) => c.subject.includes('Service seal (test)'))!;
    expect(seal.issuer).toContain('Open eSignature local root CA');
    expect(certs.some((c) => c.subject.includes('Open eSignature local root CA'))).toBe(true);

    // The certificate the local CA issued: for the seal's key usages, under the root.
    const leaf = new X509Certificate(signer.chain[0]!);
    expect(leaf.checkIssued(new X509Certificate(Buffer.from(ca.root.rawData)))).toBe(true);
    expect(leaf.ca).toBe(false);
  });

  it('seals with an ECDSA P-256 KMS key of an account, used for that account only', async () => {
    await ensureLocalSeal({
      kms,
      ca,
      chains,
      name: NAME,
      accountId: 'acct-1',
      subject: 'CN=Acme seal, O=Acme',
      keySpec: 'ECC_NIST_P256',
    });
    const store = identity();
    const own = (await store.get('acct-1')) as TSealSigner;
    expect(own.algorithm).toBe('ECDSA_SHA_256');
    expect(own.commonName).toBe('Acme seal');
    expect(((await store.get('acct-2')) as TSealSigner).commonName).toBe('Service seal (test)');
    expect(((await store.get()) as TSealSigner).commonName).toBe('Service seal (test)');

    const sealed = await sealPdf(await aPdf(), own, info);
    const report = lastSignature(sealed);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Acme seal');
    const { cms, signed } = sealCmsOf(sealed);
    expect(opensslCmsVerify(cms, signed, ca.root.toString('pem'))).toContain('Verification successful');
    expect(opensslSignerAlgorithm(cms)).toBe('ecdsa-with-SHA256');
  });

  it('refuses to seal when the installed certificate is not for the KMS key, and says so', async () => {
    const other = await ca.issue('CN=Someone else', sealExtensions());
    const wrong = createLocalSealChains(path.join(dir, 'wrong'), NAME);
    await wrong.put(
      pemOfCertificates([Buffer.from(other.certificate.rawData), Buffer.from(ca.root.rawData)]),
    );
    const store = createKmsSealIdentity({ kms, chains: wrong, keyId: sealKeyAlias(NAME), name: NAME });
    await expect(store.get()).rejects.toThrow(/seal of the service cannot be used: .*not for the seal key/);
  });

  it('seals with the older PKCS #12 identity until a chain is installed, else says what to run', async () => {
    const empty = createLocalSealChains(path.join(dir, 'empty'), NAME);
    const legacy = newSealIdentity('Legacy seal');
    const withFallback = createKmsSealIdentity({
      kms,
      chains: empty,
      keyId: sealKeyAlias(NAME),
      name: NAME,
      fallback: { get: async () => legacy },
    });
    const got = await withFallback.get('acct-1');
    expect(isSealSigner(got)).toBe(false);
    expect(got.commonName).toBe('Legacy seal');
    const without = createKmsSealIdentity({ kms, chains: empty, keyId: sealKeyAlias(NAME), name: NAME });
    await expect(without.get()).rejects.toThrow(/seal-csr.*seal-install-cert/);
  });
});
