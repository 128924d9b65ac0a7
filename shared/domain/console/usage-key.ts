import type { TConsoleStore, TUsageKey } from '../ports/console';
import { newToken } from '../tokens';

/**
 * Registers a usage key's value with the usage plan and answers its id (on AWS: an API Gateway
 * API key in the plan). Locally there is none: the local usage plan counts by id alone.
 */
export type TRegisterUsageKey = (value: string, accountId: string) => Promise<string>;

/**
 * The key the account's console sessions are counted under by the usage plan: one per account,
 * made on its first sign-in, so every user of the account in the console shares one allowance,
 * as the requests of one API key do. Its value is an identifier for the plan, not a credential:
 * the authorizer never accepts it as an API key.
 */
export async function usageKeyOf(
  deps: { console: TConsoleStore; registerUsageKey?: TRegisterUsageKey },
  accountId: string,
): Promise<TUsageKey> {
  const known = await deps.console.getUsageKey(accountId);
  if (known) return known;
  const value = `console${newToken()}`;
  const id = deps.registerUsageKey ? await deps.registerUsageKey(value, accountId) : `console-${accountId}`;
  // Two first sign-ins at once: the key saved first is the account's.
  return deps.console.saveUsageKey(accountId, { id, value });
}
