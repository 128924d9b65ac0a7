// RFC 3161 timestamps: the service's TSA client against the local TSA stand-in, the tokens it
// keeps checked by openssl (a tool we did not write), and every wrong answer refused with its reason.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocalCa, type TLocalCa } from '#infra/local/local-ca';
import { startTsaStandin, type TTsaMode, type TTsaStandin } from '#infra/local/tsa-standin';
import { createEvidencePdf } from '#shared/adapters/pdf/evidence-pdf';
import { createTsaTimestamper, TimestampUnavailableError } from '#shared/adapters/timestamps/tsa-timestamper';
import { timestampRequest } from '#shared/adapters/timestamps/tsp';
import type { TConfig } from '#shared/config';
import { newSealIdentity, sealPdf } from '#shared/pdf/seal';
import { aPdf } from '../helpers/pdfs';
import { pdfsig } from '../helpers/poppler';
import { opensslVerifyTimestamp, signatureTimestampOf } from '../helpers/seal-timestamp';
import { startSecretsManager } from '../helpers/secrets-manager';

let dir: string;
let ca: TLocalCa;
let tsa: TTsaStandin;
let other: TTsaStandin;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-tsa-'));
  ca = await loadLocalCa(join(dir, 'ca'));
  tsa = await startTsaStandin({ ca });
  other = await startTsaStandin({ ca });
});
afterAll(async () => {
  await tsa?.stop();
  await other?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const digestOf = (text: string) => createHash('sha256').update(text).digest();

/** openssl's own verdict on a token for a digest, trusting the local root only. */
function opensslVerify(token: Buffer, digest: Buffer): string {
  const tokenFile = join(dir, `token-${digest.toString('hex').slice(0, 8)}.der`);
  const rootFile = join(dir, 'root.pem');
  writeFileSync(tokenFile, token);
  writeFileSync(rootFile, ca.root.toString('pem'));
  return execFileSync(
    'openssl',
    ['ts', '-verify', '-digest', digest.toString('hex'), '-in', tokenFile, '-token_in', '-CAfile', rootFile],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

describe('RFC 3161 timestamps', () => {
  it('gives a token that openssl verifies for the digest, against the local root', async () => {
    tsa.setMode('ok');
    const digest = digestOf('the signature value of a sealed document');
    const stamped = await createTsaTimestamper([{ url: tsa.url }]).timestamp(digest);
    expect(stamped.tsaUrl).toBe(tsa.url);
    expect(Math.abs(stamped.genTime.getTime() - Date.now())).toBeLessThan(5 * 60_000);
    expect(opensslVerify(stamped.token, digest)).toMatch(/Verification: OK/);
    // openssl refuses the same token for another digest: the imprint is bound into it.
    expect(() => opensslVerify(stamped.token, digestOf('another document'))).toThrow();
  });

  it('keeps the local CA across restarts of the stand-in', async () => {
    const again = await loadLocalCa(join(dir, 'ca'));
    expect(again.root.toString('pem')).toBe(ca.root.toString('pem'));
    expect(again.tsa.certificate.toString('pem')).toBe(ca.tsa.certificate.toString('pem'));
  });

  it('requests a fresh nonce each time', () => {
    const digest = digestOf('x');
    expect(timestampRequest(digest).nonce.equals(timestampRequest(digest).nonce)).toBe(false);
  });

  it('draws every one of the nonce’s 64 bits at random', () => {
    // A bit fixed in every nonce is entropy lost; over 256 draws each free bit shows both values
    // except with a chance of 2^-255, so this cannot fail by bad luck.
    const seen = [new Set<bigint>(), new Set<bigint>()] as const;
    for (let i = 0; i < 256; i++) {
      const value = BigInt(`0x${timestampRequest(digestOf('x')).nonce.toString('hex')}`);
      expect(value >> 64n).toBe(0n);
      for (let bit = 0n; bit < 64n; bit++) seen[Number((value >> bit) & 1n)]!.add(bit);
    }
    expect(seen[0].size).toBe(64);
    expect(seen[1].size).toBe(64);
  });

  it('writes a request that openssl reads: SHA-256, our imprint and nonce, certificate requested', () => {
    const digest = digestOf('a request');
    const request = timestampRequest(digest);
    const file = join(dir, 'request.tsq');
    writeFileSync(file, request.der);
    const text = execFileSync('openssl', ['ts', '-query', '-in', file, '-text'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(text).toMatch(/Hash Algorithm: sha256/);
    expect(text).toMatch(/Certificate required: yes/);
    const shownDigest = [...text.matchAll(/^\s+[0-9a-f]{4} - ([0-9a-f -]+?)\s{2,}/gm)]
      .map((m) => m[1]!.replace(/[ -]/g, ''))
      .join('');
    expect(shownDigest).toBe(digest.toString('hex'));
    const nonce = /Nonce: (0x[0-9A-F]+|\d+)/.exec(text)?.[1];
    expect(nonce && BigInt(nonce)).toBe(BigInt(`0x${request.nonce.toString('hex')}`));
  });

  const refusals: [TTsaMode, RegExp][] = [
    ['down', /HTTP 503/],
    ['slow', /no answer within/],
    ['garbage', /not DER|not a TimeStampResp/],
    ['wrong-nonce', /nonce/],
    ['wrong-imprint', /message imprint/],
    ['no-eku', /may not issue timestamps/],
    ['forged', /signature does not verify/],
  ];
  for (const [mode, reason] of refusals) {
    it(`refuses an authority that is ${mode}, saying why`, async () => {
      tsa.setMode(mode);
      try {
        const attempt = createTsaTimestamper([{ url: tsa.url }], 1_000).timestamp(digestOf(mode));
        await expect(attempt).rejects.toThrow(TimestampUnavailableError);
        const err = (await attempt.catch((e: unknown) => e)) as TimestampUnavailableError;
        expect(err.failures).toHaveLength(1);
        expect(err.failures[0]!.url).toBe(tsa.url);
        expect(err.failures[0]!.reason).toMatch(reason);
      } finally {
        tsa.setMode('ok');
      }
    });
  }

  it('goes on to the next authority when one fails, and says so when none is configured', async () => {
    tsa.setMode('down');
    try {
      const digest = digestOf('fallback');
      const stamped = await createTsaTimestamper([{ url: tsa.url }, { url: other.url }], 1_000).timestamp(
        digest,
      );
      expect(stamped.tsaUrl).toBe(other.url);
      expect(opensslVerify(stamped.token, digest)).toMatch(/Verification: OK/);
    } finally {
      tsa.setMode('ok');
    }
    await expect(createTsaTimestamper([]).timestamp(digestOf('none'))).rejects.toThrow(
      /No timestamp authority is configured/,
    );
  });
});

describe('a PAdES B-T seal', () => {
  const info = {
    reason: 'Final document of bundle Xk3pQ9rT2w',
    name: 'Open eSignature service',
    location: 'local',
  };

  it('carries the authority’s token over its signature: pdfsig finds the seal valid, openssl the timestamp', async () => {
    tsa.setMode('ok');
    const timestamper = createTsaTimestamper([{ url: tsa.url }]);
    const sealed = await sealPdf(
      await aPdf(),
      newSealIdentity('B-T test seal'),
      info,
      async (imprint) => (await timestamper.timestamp(imprint)).token,
    );
    expect(pdfsig(sealed)).toMatch(/Signature Validation: Signature is Valid/);
    expect(pdfsig(sealed)).toMatch(/Total document signed/);
    const stamp = signatureTimestampOf(sealed);
    expect(stamp, 'the seal carries a signature timestamp').toBeDefined();
    expect(opensslVerifyTimestamp(stamp!.token, stamp!.imprint, ca.root.toString('pem'))).toMatch(
      /Verification: OK/,
    );
    // A B-B seal has none.
    expect(
      signatureTimestampOf(await sealPdf(await aPdf(), newSealIdentity('B-B test seal'), info)),
    ).toBeUndefined();
  });

  it('is not written at all when no authority gives a valid timestamp', async () => {
    tsa.setMode('wrong-imprint');
    try {
      const timestamper = createTsaTimestamper([{ url: tsa.url }], 1_000);
      await expect(
        sealPdf(
          await aPdf(),
          newSealIdentity('B-T test seal'),
          info,
          async (imprint) => (await timestamper.timestamp(imprint)).token,
        ),
      ).rejects.toThrow(TimestampUnavailableError);
    } finally {
      tsa.setMode('ok');
    }
  });
});

describe('credentials for an authority that wants them', () => {
  const SECRET_ID = 'esign-test-tsa-credentials';
  const info = { reason: 'Final document', name: 'Open eSignature service', location: 'local' };
  const auth = { authorization: 'Basic c2VhbDpzM2NyZXQ=' };

  it('are sent from the credentials secret; without them the authority refuses and no seal is made', async () => {
    const sm = await startSecretsManager(SECRET_ID);
    tsa.requireHeaders(auth);
    try {
      const config: TConfig = {
        stage: 'test',
        region: 'us-east-1',
        tableName: 't',
        bucketName: '',
        usagePlanId: '',
        logLevel: 'silent',
        endpoints: { secretsmanager: sm.endpoint },
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
        // B-T: what is under test is the seal's own timestamp, not the validation data after it.
        timestamps: { tsas: [{ url: tsa.url }], credentialsSecretId: SECRET_ID, level: 'B-T' },
      };
      const seal = newSealIdentity('Credentials test seal');
      const pdfOf = () => createEvidencePdf({ get: async () => seal }, config);
      // The secret as the stack creates it, without a value: no credentials.
      await expect(pdfOf().seal(await aPdf(), info)).rejects.toThrow(/HTTP 401/);
      sm.state.value = 'not json';
      await expect(pdfOf().seal(await aPdf(), info)).rejects.toThrow(/must be JSON/);
      sm.state.value = JSON.stringify({ [tsa.url]: auth });
      const sealed = await pdfOf().seal(await aPdf(), info);
      const stamp = signatureTimestampOf(sealed);
      expect(opensslVerifyTimestamp(stamp!.token, stamp!.imprint, ca.root.toString('pem'))).toMatch(
        /Verification: OK/,
      );
    } finally {
      tsa.requireHeaders(undefined);
      await sm.stop();
    }
  });
});
