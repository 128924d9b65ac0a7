import type { TUser } from '../accounts/account';
import type { TClient, TSecurityEventKind } from '../console/console-session';
import { PermissionDeniedError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TConsoleStore } from '../ports/console';
import type { TClock, TIds } from '../ports/system';

/** Who asks: the caller of the API (by key or console session) and where from. */
export interface TActing {
  accountId: string;
  userId: string;
  client: TClient;
}

export interface TAdminDeps {
  accounts: TAccountStore;
  console: TConsoleStore;
  clock: TClock;
  ids: TIds;
}

/**
 * The acting user, who must be an admin of the account: read afresh on every request, so an
 * admin made a plain user loses these rights at once.
 */
export async function requireAdmin(deps: { accounts: TAccountStore }, acting: TActing): Promise<TUser> {
  const user = acting.userId ? await deps.accounts.getUser(acting.accountId, acting.userId) : undefined;
  if (!user?.isAdmin) {
    throw new PermissionDeniedError(
      "Only an admin of the account can manage its users, teams and security log. Ask one of the account's admins.",
    );
  }
  return user;
}

/** One line of the account's security log: which admin did what to what. */
export async function recordChange(
  deps: TAdminDeps,
  acting: TActing,
  kind: TSecurityEventKind,
  subjectId: string,
): Promise<void> {
  await deps.console.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind,
    accountId: acting.accountId,
    userId: acting.userId,
    subjectId,
    ...acting.client,
    at: deps.clock.now().toISOString(),
  });
}
