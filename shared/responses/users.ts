// The account's users, invitations, teams and security log in their wire form
// (shared/schemas/responses/users.ts).
import type { TTeam, TUser } from '#shared/domain/accounts/account';
import type { TSecurityEvent } from '#shared/domain/console/console-session';
import type { TInvitation } from '#shared/domain/users/invitation';

export const toUserResponse = (u: TUser) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  is_admin: u.isAdmin,
  teams: u.teams ?? [],
  created: u.created,
});

export const toInvitationResponse = (i: TInvitation) => ({
  id: i.id,
  email: i.email,
  name: i.name,
  is_admin: i.isAdmin,
  teams: i.teams,
  invited_by: i.invitedBy,
  created: i.created,
  expires: i.expires,
});

export const toTeamResponse = (t: TTeam) => ({ id: t.id, name: t.name, created: t.created });

export const toSecurityEventResponse = (e: TSecurityEvent) => ({
  id: e.id,
  kind: e.kind,
  ...(e.userId ? { user_id: e.userId } : {}),
  ...(e.subjectId ? { subject_id: e.subjectId } : {}),
  ...(e.actor ? { actor: e.actor } : {}),
  ...(e.erasure
    ? {
        erasure: {
          persons_removed: e.erasure.personsRemoved,
          bundles_to_act_on: e.erasure.bundlesToActOn,
          bundles_kept: e.erasure.bundlesKept,
        },
      }
    : {}),
  ip: e.ip,
  user_agent: e.userAgent,
  at: e.at,
});
