// esign-verify as a person runs it: the bin launcher in a child process, on files sealed by the
// service's own code. Exit codes: 0 every check holds, 1 a check failed, 2 usage or unreadable.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, type TLocalCa } from '#infra/local/local-ca';
import { startTsaStandin, type TTsaStandin } from '#infra/local/tsa-standin';
import { createTsaTimestamper } from '#shared/adapters/timestamps/tsa-timestamper';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import type { TVerifyReport } from '#shared/verify/report';
import { aPdf } from '../helpers/pdfs';

const BIN = join(import.meta.dirname, '../../bin/esign-verify.mjs');
let dir: string;
let ca: TLocalCa;
let tsa: TTsaStandin;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-verify-cli-'));
  ca = await loadLocalCa();
  tsa = await startTsaStandin({ ca });
  const identity = newSealIdentity('CLI test seal');
  const timestamper = createTsaTimestamper([{ url: tsa.url }]);
  const sealed = await sealPdf(
    await aPdf(),
    identity,
    { reason: 'Final document', name: 'n', location: 'l' },
    async (i) => Buffer.from((await timestamper.timestamp(i)).token),
  );
  writeFileSync(file('sealed.pdf'), sealed);
  writeFileSync(file('appended.pdf'), Buffer.concat([sealed, Buffer.from('%')]));
  writeFileSync(file('seal.pem'), identity.certificatePem);
  writeFileSync(file('root.der'), Buffer.from(ca.root.rawData));
  writeFileSync(file('other-root.pem'), (await loadLocalCa()).root.toString('pem'));
  writeFileSync(file('not-a.pdf'), 'plain text');
});
afterAll(async () => {
  await tsa?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('esign-verify', () => {
  it('exits 0 with a PASS line per check when every check holds (seal and root trusted, PEM and DER)', () => {
    const r = run('--trust', file('seal.pem'), '--trust', file('root.der'), file('sealed.pdf'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^PASS {2}Signature 1 \(CLI test seal\): the bytes it signed are unchanged\.$/m);
    expect(r.out).toMatch(
      /^PASS {2}Signature 1 \(CLI test seal\): timestamped at .* by CN=Open eSignature local timestamp authority/m,
    );
    expect(r.out).toMatch(
      /^PASS {2}Certificates of signature 1: the chain ends at a certificate on your trust list\.$/m,
    );
    expect(r.out).not.toMatch(/^FAIL/m);
    expect(r.out.trimEnd().split('\n').at(-1)).toBe('RESULT: PASS — every check holds.');
  });

  it('exits 1 and says what to do when a byte was appended after the seal', () => {
    const r = run(file('appended.pdf'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}Signature 1 \(CLI test seal\): it does not cover the whole file/m);
    expect(r.out).toMatch(/→ The added bytes can change what the document shows/);
    expect(r.out).toMatch(/RESULT: FAIL — 1 check failed/);
  });

  it('exits 1 when the root is not the one trusted', () => {
    const r = run('--trust', file('other-root.pem'), file('sealed.pdf'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^FAIL {2}Certificates of signature 1: the root CN=CLI test seal \(SHA-256 [0-9A-F:]+\) is not on your trust list\.$/m,
    );
  });

  it('prints the machine-readable report with --json', () => {
    const r = run('--json', file('appended.pdf'));
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as TVerifyReport;
    expect(report).toMatchObject({
      result: 'fail',
      file: { bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      signatures: [
        { index: 1, kind: 'signature', digestMatches: true, signatureValid: true, coversWholeFile: false },
      ],
      evidenceRecord: { status: 'none embedded' },
      online: false,
      trustedRoots: [],
      dss: null,
    });
    expect(report.checks.find((c) => c.status === 'fail')).toMatchObject({
      id: 'signature-1.coverage',
      next: expect.any(String),
    });
  });

  it('exits 2 for a wrong command line, a missing or unreadable file and a trust file that is no certificate', () => {
    const none = run();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/Name exactly one PDF file to verify\.[\s\S]*Usage: esign-verify/);
    expect(run('--frobnicate', file('sealed.pdf')).code).toBe(2);
    const missing = run(file('missing.pdf'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read .*missing\.pdf: ENOENT\. Check the path\./);
    const notPdf = run(file('not-a.pdf'));
    expect(notPdf.code).toBe(2);
    expect(notPdf.err).toMatch(/The file is not a readable PDF/);
    const badTrust = run('--trust', file('not-a.pdf'), file('sealed.pdf'));
    expect(badTrust.code).toBe(2);
    expect(badTrust.err).toMatch(/is not a certificate \(PEM or DER\)/);
    expect(run('--help').code).toBe(0);
  });

  it('runs as `npx esign-verify` from the repository, through its bin entry', () => {
    const r = spawnSync('npx', ['--no', '--', 'esign-verify', '--json', file('sealed.pdf')], {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '../..'),
    });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as TVerifyReport).result).toBe('pass');
  });
});
