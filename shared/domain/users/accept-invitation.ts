import { addUser } from '../accounts/add-user';
import type { TClient } from '../console/console-session';
import { beginSession, type TOpenedConsoleSession } from '../console/open-console-session';
import type { TUsageKeys } from '../console/usage-key';
import { ConflictError, GoneError, InvalidLinkError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TConsoleStore } from '../ports/console';
import { normalizeEmail } from '../ports/contact-keys';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import type { TUserAdminStore } from '../ports/users';
import { hashToken, isToken } from '../tokens';

export interface TAcceptDeps {
  users: TUserAdminStore;
  accounts: TAccountStore;
  persons: TPersonStore;
  console: TConsoleStore;
  clock: TClock;
  ids: TIds;
  usageKeys?: TUsageKeys;
}

const NOT_VALID = 'This invitation link is not valid. Ask an admin of the account to invite you again.';

/**
 * Trades an invitation's token for a new user of the account (also one of its persons, as the
 * operator's add-user makes them) and a console session. The invitation is spent by one
 * conditional write, so of two requests with the same link exactly one makes a user.
 */
export async function acceptInvitation(
  deps: TAcceptDeps,
  input: unknown,
  client: TClient,
): Promise<TOpenedConsoleSession> {
  const token = (input as { token?: unknown } | undefined)?.token;
  if (!isToken(token)) throw new InvalidLinkError(NOT_VALID);
  const now = deps.clock.now();
  const spent = await deps.users.consumeInvitation(hashToken(token), now);
  if ('refused' in spent) {
    if (spent.refused === 'used') {
      throw new ConflictError('This invitation was already used. Sign in with your email address instead.');
    }
    if (spent.refused === 'expired') {
      throw new GoneError('This invitation has expired. Ask an admin of the account to invite you again.');
    }
    throw new InvalidLinkError(NOT_VALID);
  }
  const { invitation } = spent;
  const account = await deps.accounts.getAccount(invitation.accountId);
  if (!account) throw new InvalidLinkError(NOT_VALID);
  const users = await deps.accounts.listUsers(account.id);
  if (users.some((u) => normalizeEmail(u.email) === invitation.email)) {
    throw new ConflictError(
      'You are already a user of this account. Sign in with your email address instead.',
    );
  }
  // Teams deleted since the invitation was sent are left out rather than refusing the user.
  const known = new Set((await deps.accounts.listTeams(account.id)).map((t) => t.id));
  const user = await addUser(deps, account.id, {
    name: invitation.name,
    email: invitation.email,
    isAdmin: invitation.isAdmin,
    teams: invitation.teams.filter((t) => known.has(t)),
  });
  await deps.users.noteInvitee(account.id, invitation.id, user.id);
  await deps.console.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind: 'invitation_accepted',
    accountId: account.id,
    userId: user.id,
    subjectId: invitation.id,
    ...client,
    at: now.toISOString(),
  });
  return beginSession(deps, user, account, client, 'signed_in');
}
