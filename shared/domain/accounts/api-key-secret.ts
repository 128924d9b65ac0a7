import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62: rejection sampling, since 256 is not a multiple of 62. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) if (b < 248 && out.length < length) out += ALPHABET[b % 62];
  }
  return out;
}

/** 48 base62 characters, about 285 bits (docs/api-decisions.md, Authentication). */
export function newApiKeySecret(length = 48): string {
  return randomBase62(length);
}

/**
 * Keys are random and long, so a fast hash is enough to make a leaked table useless; a slow
 * password hash would only slow every authorizer call.
 */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeApiKey(secret: string): boolean {
  return /^[A-Za-z0-9]{40,128}$/.test(secret);
}
