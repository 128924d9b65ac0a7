// The signature timestamp of a sealed PDF, read out for tools we did not write to check: the
// token from the seal's CMS (unsigned attribute id-aa-signatureTimeStampToken) and the SHA-256 of
// the signature value it must stamp; openssl verifies one against the other.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

/** Where the seal's /ByteRange is: the last signature that is not an archive (document) timestamp. */
export function sealAt(text: string): number {
  let at = text.lastIndexOf('/ByteRange');
  // Our signature dictionaries state the SubFilter just before the /ByteRange.
  while (at > 0 && text.slice(Math.max(0, at - 120), at).includes('/ETSI.RFC3161'))
    at = text.lastIndexOf('/ByteRange', at - 1);
  return at;
}

/** The token and the digest it must stamp, or undefined when the seal carries no timestamp. */
export function signatureTimestampOf(pdf: Uint8Array): { token: Buffer; imprint: Buffer } | undefined {
  const text = Buffer.from(pdf).toString('latin1');
  const at = sealAt(text);
  const [a, b, c] = (/\[\s*(\d+)\s+(\d+)\s+(\d+)/.exec(text.slice(at, at + 120)) ?? [])
    .slice(1)
    .map(Number) as [number, number, number];
  // The reserved space is zero-padded after the CMS; the DER parser reads the CMS's own length.
  const der = Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(der)).result });
  const signer = new pkijs.SignedData({ schema: info.content }).signerInfos[0]!;
  const attr = signer.unsignedAttrs?.attributes.find((x) => x.type === SIGNATURE_TIMESTAMP);
  if (!attr) return undefined;
  return {
    token: Buffer.from((attr.values[0] as asn1js.Sequence).toBER(false)),
    imprint: createHash('sha256').update(signer.signature.valueBlock.valueHexView).digest(),
  };
}

/**
 * The archive (document) timestamp that ends a B-LTA file: its token and the bytes it covers (its
 * two byte ranges); undefined when the last signature is not one.
 */
export function archiveTimestampOf(pdf: Uint8Array): { token: Buffer; data: Buffer } | undefined {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString('latin1');
  const at = text.lastIndexOf('/ByteRange');
  if (at < 0 || !text.slice(Math.max(0, at - 120), at).includes('/ETSI.RFC3161')) return undefined;
  const [a, b, c, d] = (/\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(text.slice(at, at + 120)) ?? [])
    .slice(1)
    .map(Number) as [number, number, number, number];
  const der = Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(der)).result });
  return {
    token: Buffer.from(info.toSchema().toBER(false)),
    data: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
  };
}

/** What `openssl ts -verify` prints for a token over `data` itself, trusting `rootPem` only; throws when it fails. */
export function opensslVerifyTimestampOf(token: Buffer, data: Buffer, rootPem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'esign-ts-'));
  try {
    writeFileSync(join(dir, 'data.bin'), data);
    return opensslVerify(token, ['-data', join(dir, 'data.bin')], rootPem);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `openssl ts -verify` prints for the token over the digest, trusting `rootPem` only; throws when it fails. */
export function opensslVerifyTimestamp(token: Buffer, imprint: Buffer, rootPem: string): string {
  return opensslVerify(token, ['-digest', imprint.toString('hex')], rootPem);
}

function opensslVerify(token: Buffer, what: string[], rootPem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'esign-ts-'));
  try {
    writeFileSync(join(dir, 'token.der'), token);
    writeFileSync(join(dir, 'root.pem'), rootPem);
    return execFileSync(
      'openssl',
      [
        'ts',
        '-verify',
        ...what,
        '-in',
        join(dir, 'token.der'),
        '-token_in',
        '-CAfile',
        join(dir, 'root.pem'),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
