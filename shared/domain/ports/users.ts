// An admin's management of the account's people: invitations, admin flags, removing users,
// renaming and deleting teams, and reading the security log.
import type { TTeam, TUser } from '../accounts/account';
import type { TSecurityEvent } from '../console/console-session';
import type { TInvitation, TInvitationRefusal } from '../users/invitation';

export interface TUserAdminStore {
  /** The invitation and the lookup of it by the hash of its token. */
  saveInvitation(invitation: TInvitation): Promise<void>;
  listInvitations(accountId: string): Promise<TInvitation[]>;
  /** Marks it revoked in one conditional write while it is neither used nor revoked; false otherwise. */
  revokeInvitation(accountId: string, id: string, at: string): Promise<boolean>;
  /**
   * Marks the invitation behind `hash` used, in one conditional write that holds only while it is
   * unused, unrevoked and not expired at `now`: of two requests exactly one gets it; the other is
   * told why not.
   */
  consumeInvitation(
    hash: string,
    now: Date,
  ): Promise<{ invitation: TInvitation } | { refused: TInvitationRefusal }>;
  /** Notes the user an accepted invitation made. */
  noteInvitee(accountId: string, id: string, userId: string): Promise<void>;
  /** The account's users, read consistently (the last-admin check must see the latest writes). */
  listUsersNow(accountId: string): Promise<TUser[]>;
  /** Sets the flag on an existing user; undefined when there is no such user. */
  setUserAdmin(accountId: string, userId: string, isAdmin: boolean): Promise<TUser | undefined>;
  /** Deletes the user and the lookup of them by address; false when there was no such user. */
  removeUser(user: TUser): Promise<boolean>;
  /** Puts a removed user back as they were (a removal undone). */
  restoreUser(user: TUser): Promise<void>;
  /** undefined when there is no such team. */
  renameTeam(accountId: string, teamId: string, name: string): Promise<TTeam | undefined>;
  /** false when there was no such team. */
  deleteTeam(accountId: string, teamId: string): Promise<boolean>;
  /** A page of the account's security log, newest first, and how many events it has in all. */
  listSecurityEvents(
    accountId: string,
    page: { page: number; perPage: number },
  ): Promise<{ items: TSecurityEvent[]; total: number }>;
}

/** Sends the invitation email, in `language` (an IETF tag; undefined: the default). */
export interface TInvitationMailer {
  sendInvitation(
    to: string,
    link: string,
    about: { accountName: string; inviterName: string; days: number },
    language: string | undefined,
  ): Promise<void>;
}
