import { ZInvitationCreateSchema } from '#shared/schemas/users';
import { checkUserTeams } from '../accounts/user-teams';
import { ConflictError, NotFoundError } from '../errors';
import { parseInput } from '../parse-input';
import { normalizeEmail } from '../ports/contact-keys';
import type { TInvitationMailer, TUserAdminStore } from '../ports/users';
import { hashToken, newToken } from '../tokens';
import { recordChange, requireAdmin, type TActing, type TAdminDeps } from './acting-admin';
import { INVITATION_DAYS, isPending, type TInvitation } from './invitation';

export interface TInviteDeps extends TAdminDeps {
  users: TUserAdminStore;
  mailer: TInvitationMailer;
  /** `<base>/console/invitation/<token>` is the link. */
  publicBaseUrl: string;
}

/**
 * An admin invites someone by email: the invitation is kept (its token only as a hash) and the
 * link mailed. An address that is already a user of the account, or already invited and
 * waiting, is refused: the admin changes that user or revokes the waiting invitation instead.
 */
export async function inviteUser(deps: TInviteDeps, acting: TActing, input: unknown): Promise<TInvitation> {
  const admin = await requireAdmin(deps, acting);
  const body = parseInput(ZInvitationCreateSchema, input);
  const email = normalizeEmail(body.email);
  const account = await deps.accounts.getAccount(acting.accountId);
  if (!account) throw new NotFoundError('Account not found.');
  const teams = body.teams?.length ? await checkUserTeams(deps.accounts, acting.accountId, body.teams) : [];
  const users = await deps.accounts.listUsers(acting.accountId);
  if (users.some((u) => normalizeEmail(u.email) === email)) {
    throw new ConflictError('This address is already a user of the account. Change that user instead.');
  }
  const now = deps.clock.now();
  const waiting = await deps.users.listInvitations(acting.accountId);
  if (waiting.some((i) => i.email === email && isPending(i, now))) {
    throw new ConflictError('This address has an invitation waiting. Revoke it first to send a new one.');
  }
  const token = newToken();
  const invitation: TInvitation = {
    id: deps.ids.uuid(),
    accountId: acting.accountId,
    hash: hashToken(token),
    email,
    name: body.name,
    isAdmin: body.is_admin ?? false,
    teams,
    invitedBy: admin.id,
    created: now.toISOString(),
    expires: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
  };
  await deps.users.saveInvitation(invitation);
  try {
    await deps.mailer.sendInvitation(
      email,
      `${deps.publicBaseUrl}/console/invitation/${token}`,
      { accountName: account.name, inviterName: admin.name, days: INVITATION_DAYS },
      account.language,
    );
  } catch (err) {
    // Not sent: nobody holds its link, and it must not block inviting the address again.
    await deps.users.revokeInvitation(acting.accountId, invitation.id, now.toISOString());
    throw err;
  }
  await recordChange(deps, acting, 'user_invited', invitation.id);
  return invitation;
}

/** The invitations still waiting to be accepted, oldest first. */
export async function listInvitations(
  deps: TAdminDeps & { users: TUserAdminStore },
  acting: TActing,
): Promise<TInvitation[]> {
  await requireAdmin(deps, acting);
  const now = deps.clock.now();
  return (await deps.users.listInvitations(acting.accountId)).filter((i) => isPending(i, now));
}

/** Revokes a waiting invitation: its link stops working. Another account's id is 404. */
export async function revokeInvitation(
  deps: TAdminDeps & { users: TUserAdminStore },
  acting: TActing,
  id: string,
): Promise<void> {
  await requireAdmin(deps, acting);
  const now = deps.clock.now();
  const found = (await deps.users.listInvitations(acting.accountId)).find((i) => i.id === id);
  if (!found) throw new NotFoundError('Invitation not found.');
  if (
    !isPending(found, now) ||
    !(await deps.users.revokeInvitation(acting.accountId, id, now.toISOString()))
  ) {
    throw new ConflictError('This invitation was already accepted, revoked or has expired.');
  }
  await recordChange(deps, acting, 'invitation_revoked', id);
}
