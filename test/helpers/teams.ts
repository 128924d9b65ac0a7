// An account with teams to test who may use a template: an admin, and three users in two teams
// (Sales: owner and teammate; Legal: outsider), each with an API key.
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { addTeam } from '#shared/domain/accounts/add-team';
import { addUser } from '#shared/domain/accounts/add-user';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';

/** What the operator's account commands need, on the runtime's table. */
export const accountDeps = (runtime: TRuntime) => ({
  accounts: createAccountStore(runtime.db, runtime.config.tableName),
  persons: createPersonStore(runtime.db, runtime.config.tableName),
  keys: createApiKeyStore(runtime.db, runtime.config.tableName),
  clock: systemClock,
  ids: randomIds,
});

export interface TTeamAccount {
  account: TSeededAccount;
  keys: Record<'admin' | 'owner' | 'teammate' | 'outsider', string>;
  ids: Record<'owner' | 'teammate' | 'outsider' | 'sales' | 'legal', string>;
}

/** Seeds the account (teams off, as new accounts are); `domain` makes its emails unique. */
export async function seedTeamAccount(
  runtime: TRuntime,
  name: string,
  domain: string,
): Promise<TTeamAccount> {
  const account = await runtime.seedAccount(name, `admin@${domain}`);
  const d = accountDeps(runtime);
  const sales = (await addTeam(d, account.accountId, { name: 'Sales' })).id;
  const legal = (await addTeam(d, account.accountId, { name: 'Legal' })).id;
  const user = async (who: string, teams: string[]) => {
    const u = await addUser(d, account.accountId, { name: who, email: `${who}@${domain}`, teams });
    return { id: u.id, key: (await issueApiKey(d, account.accountId, u.id)).secret };
  };
  const owner = await user('owner', [sales]);
  const teammate = await user('teammate', [sales]);
  const outsider = await user('outsider', [legal]);
  return {
    account,
    keys: { admin: account.apiKey, owner: owner.key, teammate: teammate.key, outsider: outsider.key },
    ids: { owner: owner.id, teammate: teammate.id, outsider: outsider.id, sales, legal },
  };
}
