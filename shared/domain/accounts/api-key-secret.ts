import { randomBase62 } from '#shared/random';
import { hashToken } from '../tokens';

/** 48 base62 characters, about 285 bits (docs/api-decisions.md, Authentication). */
export function newApiKeySecret(length = 48): string {
  return randomBase62(length);
}

/** What is stored for a key: its hash, as for every token (tokens.ts). */
export const hashApiKey = (secret: string): string => hashToken(secret);

export function looksLikeApiKey(secret: string): boolean {
  return /^[A-Za-z0-9]{40,128}$/.test(secret);
}
