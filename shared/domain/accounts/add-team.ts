import { ZTeamCreateSchema } from '#shared/schemas/account';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TClock, TIds } from '../ports/system';
import type { TTeam } from './account';

/** A team of the account; the operator adds it (there is no public API for it). */
export async function addTeam(
  deps: { accounts: TAccountStore; clock: TClock; ids: TIds },
  accountId: string,
  input: unknown,
): Promise<TTeam> {
  const t = parseInput(ZTeamCreateSchema, input);
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError('Account not found.');
  const team: TTeam = {
    id: deps.ids.uuid(),
    accountId,
    name: t.name,
    ...(t.requesterName ? { requesterName: t.requesterName } : {}),
    ...(t.requesterEmail ? { requesterEmail: t.requesterEmail } : {}),
    created: deps.clock.now().toISOString(),
  };
  await deps.accounts.addTeam(team);
  return team;
}
