import { ZUserCreateSchema } from '#shared/schemas/account';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import type { TUser } from './account';
import { checkUserTeams } from './user-teams';

/**
 * A user of the account. Each user is also a Person of the account (is_user true), so that
 * senders find their colleagues among their contacts, as the upstream service shows them.
 */
export async function addUser(
  deps: { accounts: TAccountStore; persons: TPersonStore; clock: TClock; ids: TIds },
  accountId: string,
  input: unknown,
): Promise<TUser> {
  const u = parseInput(ZUserCreateSchema, input);
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError('Account not found.');
  const teams = u.teams?.length ? await checkUserTeams(deps.accounts, accountId, u.teams) : [];
  const now = deps.clock.now().toISOString();
  const user: TUser = {
    id: deps.ids.uuid(),
    accountId,
    name: u.name,
    email: u.email,
    isAdmin: u.isAdmin ?? false,
    ...(teams.length ? { teams } : {}),
    created: now,
  };
  await deps.accounts.addUser(user);
  await deps.persons.save(
    {
      id: deps.ids.uuid(),
      accountId,
      name: u.name,
      metadata: {},
      isUser: true,
      channels: [{ id: deps.ids.uuid(), kind: 'em', email: u.email }],
      created: now,
      updated: now,
      version: 1,
    },
    undefined,
  );
  return user;
}
