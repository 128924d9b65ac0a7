import type { TSecurityEvent } from '../console/console-session';
import type { TPage } from '../paging';
import type { TUserAdminStore } from '../ports/users';
import { requireAdmin, type TActing, type TAdminDeps } from './acting-admin';

/** A page of the account's security log, newest first: sign-ins and sign-outs, admins' changes. */
export async function readSecurityLog(
  deps: TAdminDeps & { users: TUserAdminStore },
  acting: TActing,
  page: TPage,
): Promise<{ items: TSecurityEvent[]; total: number }> {
  await requireAdmin(deps, acting);
  return deps.users.listSecurityEvents(acting.accountId, page);
}
