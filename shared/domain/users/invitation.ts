// An admin's invitation of a new user: a one-time link by email, good for INVITATION_DAYS, whose
// token is stored only as its hash. Accepting it makes the user and signs them in.

/** An invitation works this long, once. */
export const INVITATION_DAYS = 7;

export interface TInvitation {
  id: string;
  accountId: string;
  /** SHA-256 of the token in the link. */
  hash: string;
  email: string;
  name: string;
  isAdmin: boolean;
  teams: string[];
  /** The admin who sent it. */
  invitedBy: string;
  created: string;
  expires: string;
  /** When it was accepted, and the user it made. */
  used?: string;
  userId?: string;
  revoked?: string;
}

/** Why an invitation's link could not be used. */
export type TInvitationRefusal = 'unknown' | 'used' | 'expired' | 'revoked';

/** Still waiting to be accepted at `now`. */
export const isPending = (i: TInvitation, now: Date): boolean =>
  !i.used && !i.revoked && Date.parse(i.expires) > now.getTime();
