import { ZAccountCreateSchema } from '#shared/schemas/account';
import { defaultFeatures } from '#shared/schemas/vocabulary';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import type { TAccount } from './account';

export async function createAccount(
  deps: { accounts: TAccountStore; clock: TClock; ids: TIds },
  input: unknown,
): Promise<TAccount> {
  const a = parseInput(ZAccountCreateSchema, input);
  const account: TAccount = {
    id: deps.ids.uuid(),
    name: a.name,
    requesterName: a.requesterName ?? a.name,
    requesterEmail: a.requesterEmail,
    features: { ...defaultFeatures(), ...(a.features ?? {}) },
    created: deps.clock.now().toISOString(),
    version: 1,
  };
  await deps.accounts.createAccount(account);
  return account;
}
