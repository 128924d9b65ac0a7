// Ids derived from what names a thing rather than drawn at random: making the same thing again
// (a retried chunk, a republished event, a create retried under its Idempotency-Key) yields the
// same id, and the item's conditional put (`attribute_not_exists`) lets only one exist.
import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A bundle's id shape (10 base62 characters) from SHA-256 of `seed`. */
export function derivedSlug(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < 10; i++) id += BASE62[bytes[i]! % 62];
  return id;
}

/** A UUIDv8 (RFC 9562, custom) from SHA-256 of `seed`. */
export function derivedUuid(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
