import type { TApiKeyStore } from '../ports/accounts';
import type { TApiKey } from './account';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';

/** The key's owner, or undefined for a key that is malformed, unknown or revoked. */
export async function authenticateApiKey(
  deps: { keys: TApiKeyStore },
  secret: string,
): Promise<TApiKey | undefined> {
  if (!looksLikeApiKey(secret)) return undefined;
  const key = await deps.keys.findByHash(hashApiKey(secret));
  if (!key || key.revoked) return undefined;
  return key;
}
