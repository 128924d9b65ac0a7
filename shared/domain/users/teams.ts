import { ZTeamWriteSchema } from '#shared/schemas/users';
import type { TTeam } from '../accounts/account';
import { addTeam } from '../accounts/add-team';
import { NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TUserAdminStore } from '../ports/users';
import { recordChange, requireAdmin, type TActing, type TAdminDeps } from './acting-admin';

type TDeps = TAdminDeps & { users: TUserAdminStore };

export async function listTeams(deps: TDeps, acting: TActing): Promise<TTeam[]> {
  await requireAdmin(deps, acting);
  return deps.accounts.listTeams(acting.accountId);
}

export async function createTeam(deps: TDeps, acting: TActing, input: unknown): Promise<TTeam> {
  await requireAdmin(deps, acting);
  const { name } = parseInput(ZTeamWriteSchema, input);
  const team = await addTeam(deps, acting.accountId, { name });
  await recordChange(deps, acting, 'team_created', team.id);
  return team;
}

export async function renameTeam(
  deps: TDeps,
  acting: TActing,
  teamId: string,
  input: unknown,
): Promise<TTeam> {
  await requireAdmin(deps, acting);
  const { name } = parseInput(ZTeamWriteSchema, input);
  const team = await deps.users.renameTeam(acting.accountId, teamId, name);
  if (!team) throw new NotFoundError('Team not found.');
  await recordChange(deps, acting, 'team_renamed', teamId);
  return team;
}

/**
 * Deletes the team and takes it off its members. A template kept for the team is then used by
 * its owner and the admins only (template-access), as a template whose team is unknown.
 */
export async function deleteTeam(deps: TDeps, acting: TActing, teamId: string): Promise<void> {
  await requireAdmin(deps, acting);
  if (!(await deps.users.deleteTeam(acting.accountId, teamId))) throw new NotFoundError('Team not found.');
  for (const u of await deps.accounts.listUsers(acting.accountId)) {
    if (u.teams?.includes(teamId)) {
      await deps.accounts.setUserTeams(
        acting.accountId,
        u.id,
        u.teams.filter((t) => t !== teamId),
      );
    }
  }
  await recordChange(deps, acting, 'team_deleted', teamId);
}
