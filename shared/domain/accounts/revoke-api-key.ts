import { NotFoundError } from '../errors';
import type { TApiKey } from './account';
import { callerUser, type TCaller } from './caller';
import type { TApiKeyDeps } from './create-api-key';

/**
 * Revokes a key of the account. The table first: from then on the authorizer denies the key.
 * Removing it from API Gateway second means a failure there leaves a dead key behind, never a
 * live one; revoking again finishes the job (the store keeps the first revocation time).
 */
export async function revokeApiKey(
  deps: Pick<TApiKeyDeps, 'keys' | 'clock' | 'usageKeys'>,
  accountId: string,
  keyId: string,
): Promise<TApiKey> {
  const key = await deps.keys.revoke(accountId, keyId, deps.clock.now());
  // A key issued without API Gateway (locally, or seeded) has its own id as usageKeyId.
  if (deps.usageKeys && key.usageKeyId !== key.keyId) await deps.usageKeys.remove(key.usageKeyId);
  return key;
}

/**
 * `DELETE /api-keys/{id}`: a user revokes their own keys, an admin any of the account's. Another
 * user's key is, to a user who is not an admin, a key that does not exist (404), as it is not in
 * their list either.
 */
export async function revokeCallersApiKey(
  deps: TApiKeyDeps,
  caller: TCaller,
  keyId: string,
): Promise<TApiKey> {
  const user = await callerUser(deps, caller);
  const key = (await deps.keys.listForAccount(caller.accountId)).find((k) => k.keyId === keyId);
  if (!key || (!user.isAdmin && key.userId !== user.id)) throw new NotFoundError('API key not found.');
  return revokeApiKey(deps, caller.accountId, keyId);
}
