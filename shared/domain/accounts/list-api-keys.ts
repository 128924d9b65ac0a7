import type { TAccountStore, TApiKeyStore } from '../ports/accounts';
import type { TApiKey } from './account';
import { callerUser, type TCaller } from './caller';

/** The caller's own keys, or every key of the account for an admin; oldest first. */
export async function listApiKeys(
  deps: { accounts: TAccountStore; keys: TApiKeyStore },
  caller: TCaller,
): Promise<TApiKey[]> {
  const user = await callerUser(deps, caller);
  const keys = await deps.keys.listForAccount(caller.accountId);
  return keys
    .filter((k) => user.isAdmin || k.userId === user.id)
    .sort((a, b) => a.created.localeCompare(b.created));
}
