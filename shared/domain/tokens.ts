// The secrets this service hands out as links and sessions: signing links, signing sessions,
// embedded signing links and template preparation links. One shape for all of them (43 base62
// characters, about 256 bits: unguessable), made, recognised and stored the same way: only their
// hash is kept, so a copy of the table opens nothing. API keys are longer and have their own
// module (accounts/api-key-secret.ts) but the same hash.
import { createHash } from 'node:crypto';
import { randomBase62 } from '#shared/random';

const LENGTH = 43;
const SHAPE = /^[0-9A-Za-z]{43}$/;

/** A new token. */
export const newToken = (): string => randomBase62(LENGTH);

/** Whether `value` has a token's shape (checked before any lookup, so junk never reaches a store). */
export const isToken = (value: unknown): value is string => typeof value === 'string' && SHAPE.test(value);

/**
 * What is stored for a token. Tokens are random and long, so a fast hash is enough to make a
 * leaked table useless; a slow password hash would only slow every request.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
