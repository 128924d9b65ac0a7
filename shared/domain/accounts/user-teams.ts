import { ZUserTeamsSchema } from '#shared/schemas/account';
import { NotFoundError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TUser } from './account';

/** Every id must be a team of the account: a typo would otherwise silently grant nothing. */
export async function checkUserTeams(
  accounts: TAccountStore,
  accountId: string,
  teams: string[],
): Promise<string[]> {
  const known = new Set((await accounts.listTeams(accountId)).map((t) => t.id));
  const unknown = teams.filter((t) => !known.has(t));
  if (unknown.length > 0) {
    throw new ValidationError('No team of this account has these ids.', [
      { field: 'teams', message: `Unknown team ids: ${unknown.join(', ')}.` },
    ]);
  }
  return [...new Set(teams)];
}

/** The operator puts a user in teams (replacing the ones it had; an empty list removes all). */
export async function setUserTeams(
  deps: { accounts: TAccountStore },
  accountId: string,
  userId: string,
  input: unknown,
): Promise<TUser> {
  const { teams } = parseInput(ZUserTeamsSchema, input);
  if (!(await deps.accounts.getUser(accountId, userId)))
    throw new NotFoundError('User not found in this account.');
  return deps.accounts.setUserTeams(accountId, userId, await checkUserTeams(deps.accounts, accountId, teams));
}
