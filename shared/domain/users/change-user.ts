import { ZUserPatchSchema } from '#shared/schemas/users';
import type { TUser } from '../accounts/account';
import { revokeApiKey } from '../accounts/revoke-api-key';
import { checkUserTeams } from '../accounts/user-teams';
import { ConflictError, NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import type { TApiKeyStore } from '../ports/accounts';
import type { TUserAdminStore } from '../ports/users';
import { recordChange, requireAdmin, type TActing, type TAdminDeps } from './acting-admin';

type TDeps = TAdminDeps & { users: TUserAdminStore };

const LAST_ADMIN =
  'The account must keep at least one admin. Make another user an admin first, then try again.';

async function userOf(deps: TDeps, acting: TActing, userId: string): Promise<TUser> {
  const user = await deps.accounts.getUser(acting.accountId, userId);
  if (!user) throw new NotFoundError('User not found.');
  return user;
}

/**
 * After a change that may take away an admin: whether one is left. Checked after the write,
 * on a consistent read, so that of two admins demoting each other at once at least one sees the
 * other's change and undoes its own: the account is never left without an admin.
 */
async function adminRemains(deps: TDeps, accountId: string): Promise<boolean> {
  return (await deps.users.listUsersNow(accountId)).some((u) => u.isAdmin);
}

export async function listUsers(deps: TDeps, acting: TActing): Promise<TUser[]> {
  await requireAdmin(deps, acting);
  return deps.accounts.listUsers(acting.accountId);
}

export async function getUser(deps: TDeps, acting: TActing, userId: string): Promise<TUser> {
  await requireAdmin(deps, acting);
  return userOf(deps, acting, userId);
}

/** An admin changes a user's admin flag and teams (`teams` replaces the list). */
export async function changeUser(
  deps: TDeps,
  acting: TActing,
  userId: string,
  input: unknown,
): Promise<TUser> {
  await requireAdmin(deps, acting);
  const patch = parseInput(ZUserPatchSchema, input);
  let user = await userOf(deps, acting, userId);
  if (patch.teams !== undefined) {
    const teams = await checkUserTeams(deps.accounts, acting.accountId, patch.teams);
    user = await deps.accounts.setUserTeams(acting.accountId, userId, teams);
  }
  if (patch.is_admin !== undefined && patch.is_admin !== user.isAdmin) {
    const changed = await deps.users.setUserAdmin(acting.accountId, userId, patch.is_admin);
    if (!changed) throw new NotFoundError('User not found.');
    if (!patch.is_admin && !(await adminRemains(deps, acting.accountId))) {
      await deps.users.setUserAdmin(acting.accountId, userId, true);
      throw new ConflictError(LAST_ADMIN);
    }
    user = changed;
  }
  await recordChange(deps, acting, 'user_changed', userId);
  return user;
}

/**
 * An admin removes a user: their console sessions fail from the next request on (a session
 * whose user is gone is no session), they can no longer ask for a sign-in link, and their API
 * keys are revoked. They stay among the account's persons, and the bundles they sent stay theirs.
 */
export async function removeUser(
  deps: TDeps & { keys: TApiKeyStore },
  acting: TActing,
  userId: string,
): Promise<{ apiKeysRevoked: number }> {
  await requireAdmin(deps, acting);
  const user = await userOf(deps, acting, userId);
  if (!(await deps.users.removeUser(user))) throw new NotFoundError('User not found.');
  if (user.isAdmin && !(await adminRemains(deps, acting.accountId))) {
    await deps.users.restoreUser(user);
    throw new ConflictError(LAST_ADMIN);
  }
  const keys = (await deps.keys.listForAccount(acting.accountId)).filter(
    (k) => k.userId === userId && !k.revoked,
  );
  // The table's revocation is what the authorizer reads; the usage plan's copy of the key, when
  // there is one, is dead from then on and left for the operator's revoke-key to clear.
  for (const k of keys) await revokeApiKey(deps, acting.accountId, k.keyId);
  await recordChange(deps, acting, 'user_removed', userId);
  return { apiKeysRevoked: keys.length };
}
