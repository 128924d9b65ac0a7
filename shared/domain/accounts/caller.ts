import { NotFoundError, PermissionDeniedError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TUser } from './account';

/** Who asks, as the authorizer says: the account, and the user of the key or the console session. */
export interface TCaller {
  accountId: string;
  userId: string;
}

/** The caller's user; a caller whose user left the account reaches nothing (404). */
export async function callerUser(deps: { accounts: TAccountStore }, caller: TCaller): Promise<TUser> {
  const user = await deps.accounts.getUser(caller.accountId, caller.userId);
  if (!user) throw new NotFoundError('User not found in this account.');
  return user;
}

/** The caller's user when an admin of the account; else 403, saying who may. */
export async function requireAdmin(
  deps: { accounts: TAccountStore },
  caller: TCaller,
  what: string,
): Promise<TUser> {
  const user = await callerUser(deps, caller);
  if (!user.isAdmin) throw new PermissionDeniedError(`Only account admins may ${what}.`);
  return user;
}
