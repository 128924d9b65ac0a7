import type { TConsoleStore, TUsageKey } from '../ports/console';
import { newToken } from '../tokens';

/**
 * The usage plan's keys (on AWS: API Gateway API keys in the plan): `register` answers the new
 * key's id, `remove` deletes one. Locally there is none: the local usage plan counts by id alone.
 */
export interface TUsageKeys {
  register(value: string, accountId: string): Promise<string>;
  remove(id: string): Promise<void>;
}

/**
 * The key the account's console sessions are counted under by the usage plan: one per account,
 * made on its first sign-in, so every user of the account in the console shares one allowance,
 * as the requests of one API key do. Its value is an identifier for the plan, not a credential:
 * the authorizer never accepts it as an API key.
 */
export async function usageKeyOf(
  deps: { console: TConsoleStore; usageKeys?: TUsageKeys },
  accountId: string,
): Promise<TUsageKey> {
  const known = await deps.console.getUsageKey(accountId);
  if (known) return known;
  const value = `console${newToken()}`;
  const id = deps.usageKeys ? await deps.usageKeys.register(value, accountId) : `console-${accountId}`;
  // Two first sign-ins at once: the key saved first is the account's; the other is removed.
  const kept = await deps.console.saveUsageKey(accountId, { id, value });
  if (kept.id !== id) await deps.usageKeys?.remove(id);
  return kept;
}
