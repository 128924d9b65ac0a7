import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime } from '#infra/local/runtime';
import { createEvidencePdf, sealIdentityFromConfig } from '#shared/adapters/pdf/evidence-pdf';
import { ValidationDataUnavailableError } from '#shared/domain/errors';
import { verifyPdf } from '#shared/verify/verify-pdf';
import { admin } from '../helpers/admin-cli';
import { aPdf } from '../helpers/pdfs';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'esign-seal-revoke-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const info = { reason: 'Final document', name: 'Contract' };

describe('a revoked seal certificate', () => {
  it('shows as revoked to esign-verify --online, stops sealing, and is replaced at the next start', async () => {
    let runtime = await startLocalRuntime({ port: 0, dataDir: dir, logLevel: 'silent' });
    let sealedBefore: Uint8Array;
    let root: Uint8Array;
    try {
      root = new Uint8Array(runtime.ca.root.rawData);
      // One evidence maker for both seals, as a running document worker keeps one: what it
      // learnt of the certificate's status before the revocation must not seal after it.
      const evidence = createEvidencePdf(sealIdentityFromConfig(runtime.config), runtime.config);
      sealedBefore = await evidence.seal(await aPdf(), { ...info, accountId: runtime.demo.accountId });
      const before = await verifyPdf(sealedBefore, { trust: [root] });
      expect(before.result).toBe('pass');

      const revoked = await admin(dir, 'seal-revoke');
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain('CN=Open eSignature local seal');
      expect(revoked.stderr).toContain('restart npm start');

      // Offline the file holds: its DSS shows the seal good when it was sealed.
      expect((await verifyPdf(sealedBefore, { trust: [root] })).result).toBe('pass');
      // Asked now, the CA says revoked.
      const online = await verifyPdf(sealedBefore, { trust: [root], online: true });
      expect(online.result).toBe('fail');
      expect(JSON.stringify(online.checks.filter((c) => c.status === 'fail'))).toMatch(/revoked/i);

      // No new seal with a revoked certificate: refused, with the reason.
      const refused = await evidence
        .seal(await aPdf(), { ...info, accountId: runtime.demo.accountId })
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ValidationDataUnavailableError);
      expect((refused as Error).message).toMatch(/Open eSignature local seal.*revoked \(OCSP\)/);
    } finally {
      await runtime.stop();
    }

    // The next start: the local CA issues a new certificate for the same key, and sealing works.
    runtime = await startLocalRuntime({ port: 0, dataDir: dir, logLevel: 'silent' });
    try {
      const pdf = createEvidencePdf(sealIdentityFromConfig(runtime.config), runtime.config);
      const after = await pdf.seal(await aPdf(), { ...info, accountId: runtime.demo.accountId });
      expect((await verifyPdf(after, { trust: [root!], online: true })).result).toBe('pass');
    } finally {
      await runtime.stop();
    }
  }, 180_000);

  it('answers an account that does not exist with a clear error', async () => {
    const shown = await admin(dir, 'seal-revoke', '--account', 'no-such-account');
    expect(shown.code).toBe(1);
    expect(shown.stderr).toMatch(/Account not found/);
  });
});
