// The one generator of random base62 strings (ids, tokens, secrets): no rule of the service in
// it, so use cases and adapters alike draw from it.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62: rejection sampling, since 256 is not a multiple of 62. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) if (b < 248 && out.length < length) out += ALPHABET[b % 62];
  }
  return out;
}
