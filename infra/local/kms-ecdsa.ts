// ECDSA P-256 over a digest the caller has already computed, for the KMS stand-in's Sign and
// Verify with MessageType DIGEST. node:crypto hashes whatever it signs with an EC key and has no
// "sign this digest" call (only RSA has one, privateEncrypt over a DigestInfo), so the curve
// arithmetic is done here with BigInt: FIPS 186-4 signing with a random k, Jacobian coordinates.
// It serves a loopback stand-in only; the tests check its signatures with node:crypto and openssl.
import { randomBytes } from 'node:crypto';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G: TPoint = [
  0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
];

type TPoint = [bigint, bigint];
/** X, Y, Z with x = X/Z², y = Y/Z³; Z = 0 is the point at infinity. */
type TJacobian = [bigint, bigint, bigint];

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;

function inverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, m);
}

function double([x, y, z]: TJacobian): TJacobian {
  if (z === 0n || y === 0n) return [0n, 1n, 0n];
  const ysq = mod(y * y, P);
  const s = mod(4n * x * ysq, P);
  const z2 = mod(z * z, P);
  const m = mod(3n * (x - z2) * (x + z2), P); // a = -3
  const x3 = mod(m * m - 2n * s, P);
  return [x3, mod(m * (s - x3) - 8n * ysq * ysq, P), mod(2n * y * z, P)];
}

function add(p: TJacobian, q: TJacobian): TJacobian {
  if (p[2] === 0n) return q;
  if (q[2] === 0n) return p;
  const [z1s, z2s] = [mod(p[2] * p[2], P), mod(q[2] * q[2], P)];
  const u1 = mod(p[0] * z2s, P);
  const u2 = mod(q[0] * z1s, P);
  const s1 = mod(p[1] * z2s * q[2], P);
  const s2 = mod(q[1] * z1s * p[2], P);
  if (u1 === u2) return s1 === s2 ? double(p) : [0n, 1n, 0n];
  const h = mod(u2 - u1, P);
  const r = mod(s2 - s1, P);
  const h2 = mod(h * h, P);
  const h3 = mod(h * h2, P);
  const x3 = mod(r * r - h3 - 2n * u1 * h2, P);
  return [x3, mod(r * (u1 * h2 - x3) - s1 * h3, P), mod(h * p[2] * q[2], P)];
}

function multiply(k: bigint, [x, y]: TPoint): TJacobian {
  let result: TJacobian = [0n, 1n, 0n];
  let addend: TJacobian = [x, y, 1n];
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = double(addend);
  }
  return result;
}

const affineX = ([x, , z]: TJacobian) => mod(x * inverse(z * z, P), P);
const toInt = (b: Buffer) => BigInt(`0x${b.toString('hex') || '0'}`);

function derInteger(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

/** A DER ECDSA-Sig-Value over the 32-byte `digest` by the private scalar `d` (big-endian bytes). */
export function signP256Digest(d: Buffer, digest: Buffer): Buffer {
  const e = toInt(digest);
  const key = toInt(d);
  for (;;) {
    // 64 random bytes reduced mod n: no bias worth the name.
    const k = mod(toInt(randomBytes(64)), N);
    if (k === 0n) continue;
    const r = mod(affineX(multiply(k, G)), N);
    if (r === 0n) continue;
    const s = mod(inverse(k, N) * (e + r * key), N);
    if (s === 0n) continue;
    const body = Buffer.concat([derInteger(r), derInteger(s)]);
    return Buffer.concat([Buffer.from([0x30, body.length]), body]);
  }
}

/** Whether the DER `signature` is by the public point (x, y) over `digest`. */
export function verifyP256Digest(x: Buffer, y: Buffer, digest: Buffer, signature: Buffer): boolean {
  try {
    if (signature[0] !== 0x30) return false;
    const ints: bigint[] = [];
    for (let at = 2; at < signature.length; ) {
      if (signature[at] !== 0x02) return false;
      const length = signature[at + 1]!;
      ints.push(toInt(signature.subarray(at + 2, at + 2 + length)));
      at += 2 + length;
    }
    const [r, s] = ints;
    if (ints.length !== 2 || !r || !s || r >= N || s >= N) return false;
    const w = inverse(s, N);
    const point = add(multiply(mod(toInt(digest) * w, N), G), multiply(mod(r * w, N), [toInt(x), toInt(y)]));
    return point[2] !== 0n && mod(affineX(point), N) === r;
  } catch {
    return false;
  }
}
