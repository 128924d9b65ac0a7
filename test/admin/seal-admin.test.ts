// The operator's seal commands as the operator runs them (`npm run admin -- seal-…` in a child
// process) on a temporary data folder: the request checked by openssl, a certificate of another
// key or a broken chain refused, the right chain installed and shown; then an account's own seal,
// used by a running local runtime for that account's seals and for no other account's.
import { execFileSync } from 'node:child_process';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKmsStandin } from '#infra/local/kms-standin';
import { dataPaths } from '#infra/local/layout';
import { loadLocalCa, sealExtensions, type TLocalCa } from '#infra/local/local-ca';
import { startLocalRuntime } from '#infra/local/runtime';
import { createEvidencePdf, sealIdentityFromConfig } from '#shared/adapters/pdf/evidence-pdf';
import { pemOfCertificates } from '#shared/pdf/seal-signer';
import { admin, adminOk as ok } from '../helpers/admin-cli';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';

const STACK_TRACE = /\n\s+at /;

let dir: string;
/** The CA the operator sends requests to (the local CA code, in a folder of its own). */
let ca: TLocalCa;
let otherCa: TLocalCa;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seal-admin-'));
  ca = await loadLocalCa(join(dir, 'operator-ca'));
  otherCa = await loadLocalCa();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The KMS key's public key as the stand-in on the data folder reports it (SPKI DER). */
async function kmsPublicKeyOf(keyId: string): Promise<Buffer> {
  const standin = await startKmsStandin({ file: dataPaths(join(dir, 'data')).kms });
  const kms = new KMSClient({
    region: 'us-east-1',
    endpoint: standin.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    return Buffer.from((await kms.send(new GetPublicKeyCommand({ KeyId: keyId }))).PublicKey!);
  } finally {
    kms.destroy();
    await standin.stop();
  }
}

const write = async (name: string, text: string) => {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
};

const chainOf = (...certs: { rawData: ArrayBuffer }[]) =>
  pemOfCertificates(certs.map((c) => Buffer.from(c.rawData)));

describe('seal commands on the local data folder', () => {
  const data = () => join(dir, 'data');
  let csr: string;

  it('seal-csr prints a request openssl accepts, for the KMS key, with the subject given', async () => {
    const run = await admin(data(), 'seal-csr', '--subject', 'CN=Acme Corp seal, O=Acme Corp, C=DE');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    csr = run.stdout;
    expect(csr).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----\n[\s\S]+-----END CERTIFICATE REQUEST-----\n$/);
    expect(run.stderr).toContain('alias/esign-local-seal');
    expect(run.stderr).toContain('seal-install-cert');

    const file = await write('seal.csr', csr);
    // openssl 3 says so on stderr, and exits non-zero when the signature does not hold.
    const verified = execFileSync('sh', ['-c', 'openssl req -verify -noout -in "$0" 2>&1', file], {
      encoding: 'utf8',
    });
    expect(verified).toMatch(/verify OK/i);
    const subject = execFileSync(
      'openssl',
      ['req', '-noout', '-subject', '-nameopt', 'RFC2253', '-in', file],
      {
        encoding: 'utf8',
      },
    );
    expect(subject.trim()).toBe('subject=CN=Acme Corp seal,O=Acme Corp,C=DE');
    const requestKey = createPublicKey(
      execFileSync('openssl', ['req', '-noout', '-pubkey', '-in', file], { encoding: 'utf8' }),
    ).export({ type: 'spki', format: 'der' });
    expect(requestKey.equals(await kmsPublicKeyOf('alias/esign-local-seal'))).toBe(true);
  });

  it('seal-csr refuses a subject without a name, before making anything', async () => {
    const run = await admin(data(), 'seal-csr', '--subject', 'O=Acme Corp');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/has no CN/);
    expect(run.stderr).not.toMatch(STACK_TRACE);
  });

  it('seal-install-cert refuses a certificate of another key, and a chain that does not link up', async () => {
    const other = await ca.issue('CN=Not the seal key', sealExtensions());
    const wrongKey = await admin(
      data(),
      'seal-install-cert',
      '--file',
      await write('wrong-key.pem', chainOf(other.certificate, ca.root)),
    );
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(
      /is not for the seal key alias\/esign-local-seal: its public key differs/,
    );
    expect(wrongKey.stderr).not.toMatch(STACK_TRACE);

    const issued = await ca.issueFromCsr(csr, sealExtensions());
    const broken = await admin(
      data(),
      'seal-install-cert',
      '--file',
      await write('broken.pem', chainOf(issued, otherCa.root)),
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/Certificate 1 \(.*Acme Corp seal.*\) is not signed by certificate 2/);

    const none = await admin(data(), 'seal-install-cert', '--file', join(dir, 'missing.pem'));
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/Cannot read .*missing\.pem/);
  });

  it('seal-install-cert installs the right chain, and seal-show shows it', async () => {
    const issued = await ca.issueFromCsr(csr, sealExtensions());
    const run = await admin(
      data(),
      'seal-install-cert',
      '--file',
      await write('chain.pem', chainOf(issued, ca.root)),
    );
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stderr).toContain('Installed');

    const shown = await ok(data(), 'seal-show');
    const fingerprint = new X509Certificate(Buffer.from(issued.rawData)).fingerprint256
      .replaceAll(':', '')
      .toLowerCase();
    expect(shown).toMatch(
      /^KMS key\s+alias\/esign-local-seal \(arn:aws:kms:us-east-1:000000000000:key\/[0-9a-f-]+\)$/m,
    );
    expect(shown).toMatch(/^Algorithm\s+RSASSA_PKCS1_V1_5_SHA_256 \(RSA_3072\)$/m);
    expect(shown).toMatch(/^Subject\s+C=DE, O=Acme Corp, CN=Acme Corp seal$/m);
    expect(shown).toMatch(/^Issuer\s+.*Open eSignature local root CA/m);
    expect(shown).toContain(fingerprint);
    const view = JSON.parse(await ok(data(), 'seal-show', '--json'));
    expect(view.chain).toHaveLength(2);
    expect(view.certificate.sha256).toBe(fingerprint);
  });

  it('seal-show says what to do where nothing is installed', async () => {
    const accountId = (
      await ok(data(), 'create-account', '--name', 'Bare Co', '--email', 'ops@bare.test')
    ).trim();
    const run = await admin(data(), 'seal-show', '--account', accountId);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No seal certificate is installed for account .*: run seal-csr/);
    const unknown = await admin(data(), 'seal-show', '--account', 'no-such-account');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Account not found/);
  });

  it("an account's own seal, installed while the service runs, seals that account's documents only", async () => {
    const runtime = await startLocalRuntime({ port: 0, dataDir: data(), logLevel: 'silent' });
    try {
      const accountId = (
        await ok(data(), 'create-account', '--name', 'Acme', '--email', 'ops@acme.test')
      ).trim();
      const request = await ok(
        data(),
        'seal-csr',
        '--account',
        accountId,
        '--key-spec',
        'ECC_NIST_P256',
        '--subject',
        'CN=Acme own seal, O=Acme',
      );
      // Issued by the CA whose status answers the runtime can fetch (its seals are B-LTA: a
      // certificate that names no OCSP responder or CRL would fail every seal, as it should).
      const issued = await runtime.ca.issueFromCsr(request, [
        ...sealExtensions(),
        ...runtime.ca.revocationExtensions({ ocsp: true }),
      ]);
      await ok(
        data(),
        'seal-install-cert',
        '--account',
        accountId,
        '--file',
        await write('acme.pem', chainOf(issued, runtime.ca.root)),
      );
      expect(await ok(data(), 'seal-show', '--account', accountId)).toMatch(
        /^Algorithm\s+ECDSA_SHA_256 \(ECC_NIST_P256\)$/m,
      );

      // B-T: which identity seals is what is tested here; the service's chain installed above
      // comes from a CA that publishes no revocation data, which B-LTA would rightly refuse.
      const config = {
        ...runtime.config,
        timestamps: { ...runtime.config.timestamps!, level: 'B-T' as const },
      };
      const pdf = createEvidencePdf(sealIdentityFromConfig(config), config);
      const info = { reason: 'Final document', name: 'Contract' };
      const own = pdfsig(await pdf.seal(await aPdf(), { ...info, accountId }));
      expect(own).toContain('Signature is Valid.');
      expect(own).toContain('Signer Certificate Common Name: Acme own seal');
      const other = pdfsig(await pdf.seal(await aPdf(), { ...info, accountId: runtime.demo.accountId }));
      expect(other).toContain('Signature is Valid.');
      expect(other).toContain('Signer Certificate Common Name: Acme Corp seal');
    } finally {
      await runtime.stop();
    }
  }, 120_000);
});
