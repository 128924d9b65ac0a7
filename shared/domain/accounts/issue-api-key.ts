import { NotFoundError } from '../errors';
import type { TAccountStore, TApiKeyStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import type { TApiKey } from './account';
import { hashApiKey, newApiKeySecret } from './api-key-secret';

/**
 * Issues a key for a user. The secret is returned once and only its hash is kept. On AWS the key
 * is also registered with API Gateway's usage plan (`registerUsageKey`, see create-api-key.ts),
 * whose id the authorizer hands on so the plan counts this key.
 */
export async function issueApiKey(
  deps: {
    accounts: TAccountStore;
    keys: TApiKeyStore;
    clock: TClock;
    ids: TIds;
    registerUsageKey?: (secret: string, keyId: string, accountId: string) => Promise<string>;
  },
  accountId: string,
  userId: string,
  secret: string = newApiKeySecret(),
  name?: string,
): Promise<{ key: TApiKey; secret: string }> {
  if (!(await deps.accounts.getUser(accountId, userId)))
    throw new NotFoundError('User not found in this account.');
  const keyId = deps.ids.uuid();
  const usageKeyId = deps.registerUsageKey ? await deps.registerUsageKey(secret, keyId, accountId) : keyId;
  const key: TApiKey = {
    keyId,
    ...(name ? { name } : {}),
    hash: hashApiKey(secret),
    accountId,
    userId,
    usageKeyId,
    prefix: secret.slice(0, 6),
    created: deps.clock.now().toISOString(),
  };
  await deps.keys.create(key);
  return { key, secret };
}
