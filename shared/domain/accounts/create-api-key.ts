import { ZApiKeyCreateSchema } from '#shared/schemas/account-settings';
import { parseInput } from '../parse-input';
import type { TAccountStore, TApiKeyStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import type { TUsageKeyRegistry } from '../ports/usage-keys';
import type { TApiKey } from './account';
import { callerUser, type TCaller } from './caller';
import { issueApiKey } from './issue-api-key';

export interface TApiKeyDeps {
  accounts: TAccountStore;
  keys: TApiKeyStore;
  clock: TClock;
  ids: TIds;
  /** Only on AWS: API Gateway must know each key's value for the usage plan to admit it. */
  usageKeys?: TUsageKeyRegistry;
}

/** API Gateway names keys after the account and key, so its console shows whose key it is. */
export const usageKeyName = (accountId: string, keyId: string) => `esign-${accountId}-${keyId}`;

/**
 * Issues a key for a user of the account and, on AWS, its twin in API Gateway's usage plan. The
 * secret is returned once; only its hash is kept. The operator's create-key and the API's
 * POST api-keys/ both come here.
 */
export async function issueRegisteredApiKey(
  deps: TApiKeyDeps,
  accountId: string,
  userId: string,
  name?: string,
): Promise<{ key: TApiKey; secret: string }> {
  const usageKeys = deps.usageKeys;
  let registered: string | undefined;
  const registerUsageKey = usageKeys
    ? async (secret: string, keyId: string, owner: string) => {
        registered = await usageKeys.register(secret, usageKeyName(owner, keyId));
        return registered;
      }
    : undefined;
  try {
    return await issueApiKey({ ...deps, registerUsageKey }, accountId, userId, undefined, name);
  } catch (err) {
    // The key was not saved, so nobody can learn its value: its API Gateway twin is useless.
    if (usageKeys && registered) await usageKeys.remove(registered).catch(() => undefined);
    throw err;
  }
}

/** A named key for the caller's own user (`POST /api-keys/`). */
export async function createApiKey(
  deps: TApiKeyDeps,
  caller: TCaller,
  input: unknown,
): Promise<{ key: TApiKey; secret: string }> {
  const { name } = parseInput(ZApiKeyCreateSchema, input);
  await callerUser(deps, caller);
  return issueRegisteredApiKey(deps, caller.accountId, caller.userId, name);
}
