// A sealed PDF's CMS and the bytes it signs, read out so openssl (a tool we did not write) can
// check the signature and list the certificates the CMS carries.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealAt } from './seal-timestamp';

/** The last seal's CMS (DER, without the zero padding) and the byte ranges it covers. */
export function sealCmsOf(pdf: Uint8Array): { cms: Buffer; signed: Buffer } {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString('latin1');
  const at = sealAt(text);
  const [a, b, c, d] = (/\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(text.slice(at, at + 120)) ?? [])
    .slice(1)
    .map(Number) as [number, number, number, number];
  const padded = Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
  // The DER's own length: a long-form length after the SEQUENCE tag.
  const n = padded[1]! & 0x7f;
  const length = padded[1]! & 0x80 ? padded.subarray(2, 2 + n).reduce((v, x) => v * 256 + x, 0) : padded[1]!;
  const header = padded[1]! & 0x80 ? 2 + n : 2;
  return {
    cms: padded.subarray(0, header + length),
    signed: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
  };
}

function inDir<T>(use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'esign-cms-'));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `openssl cms -verify` of a detached CMS over `content`, trusting `rootPem` only; the output
 * and stderr (where openssl says "Verification successful"). Throws when it fails.
 */
export function opensslCmsVerify(cms: Buffer, content: Buffer, rootPem: string): string {
  return inDir((dir) => {
    writeFileSync(join(dir, 'sig.der'), cms);
    writeFileSync(join(dir, 'content.bin'), content);
    writeFileSync(join(dir, 'root.pem'), rootPem);
    return execFileSync(
      'sh',
      [
        '-c',
        'openssl cms -verify -binary -inform DER -in sig.der -content content.bin -CAfile root.pem -purpose any -out /dev/null 2>&1',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
  });
}

/** The subject and issuer lines of every certificate the CMS carries, as openssl prints them. */
export function opensslCmsCertificates(cms: Buffer): { subject: string; issuer: string }[] {
  const out = inDir((dir) => {
    writeFileSync(join(dir, 'sig.der'), cms);
    return execFileSync('openssl', ['pkcs7', '-print_certs', '-inform', 'DER', '-in', 'sig.der'], {
      cwd: dir,
      encoding: 'utf8',
    });
  });
  // openssl writes "CN = x, O = y": read as "CN=x, O=y".
  const names = (label: string) =>
    [...out.matchAll(new RegExp(`^${label}=\\s*(.*)$`, 'gm'))].map((m) =>
      m[1]!.trim().replaceAll(' = ', '='),
    );
  const subjects = names('subject');
  const issuers = names('issuer');
  return subjects.map((subject, i) => ({ subject, issuer: issuers[i] ?? '' }));
}

/** The SignerInfo's signatureAlgorithm as `openssl cms -cmsout -print` names it, e.g. "rsaEncryption". */
export function opensslSignerAlgorithm(cms: Buffer): string {
  const out = inDir((dir) => {
    writeFileSync(join(dir, 'sig.der'), cms);
    return execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der'], {
      cwd: dir,
      encoding: 'utf8',
    });
  });
  const signerInfos = out.slice(out.indexOf('signerInfos:'));
  return /signatureAlgorithm:\s*\n\s*algorithm: (\S+)/.exec(signerInfos)?.[1] ?? '';
}
