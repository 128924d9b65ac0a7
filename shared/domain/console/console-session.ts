// The console's sign-in and sessions: what is stored, for how long, and the secrets the browser
// holds (the link token and the session id), only ever stored as their hashes.
import { createHash, timingSafeEqual } from 'node:crypto';

/** A sign-in link works this long, once. */
export const LINK_MINUTES = 15;
/** A session not used for this long ends; one used past half of it is renewed. */
export const SESSION_IDLE_HOURS = 12;

export interface TUserByEmail {
  accountId: string;
  userId: string;
}

export interface TSignInLink {
  /** SHA-256 of the token in the link. */
  hash: string;
  accountId: string;
  userId: string;
  created: string;
  expires: string;
  used?: string;
}

export interface TConsoleSession {
  /** SHA-256 of the session id in the cookie. */
  hash: string;
  accountId: string;
  userId: string;
  created: string;
  expires: string;
  /** The account's usage key (see TUsageKey), copied so the authorizer reads one item. */
  usageKeyId: string;
  usageKeyValue: string;
}

export type TSecurityEventKind =
  | 'sign_in_requested'
  | 'signed_in'
  | 'signed_out'
  | 'signed_out_everywhere'
  | 'signed_in_with_passkey'
  | 'passkey_sign_in_failed'
  | 'passkey_added'
  | 'passkey_removed'
  | 'signed_in_with_sso'
  | 'sso_refused'
  // An admin's changes of the account's people (shared/domain/users/).
  | 'user_invited'
  | 'invitation_revoked'
  | 'invitation_accepted'
  | 'user_changed'
  | 'user_removed'
  | 'team_created'
  | 'team_renamed'
  | 'team_deleted'
  // The people the account sends to at an address erased (shared/domain/persons/).
  | 'person_erased';

/** Why a single sign-on opened no session (the console shows a message for each). */
export type TSsoRefusal = 'expired' | 'state' | 'provider' | 'unverified_email' | 'unknown_user';

/** One line of an account's security log: who, what, from where, when. */
export interface TSecurityEvent {
  id: string;
  kind: TSecurityEventKind;
  accountId: string;
  /**
   * Who acted (for a sign-in: who signed in); absent when no user of the account was found (a
   * refused single sign-on).
   */
  userId?: string;
  /** For `sso_refused`: why. */
  reason?: TSsoRefusal;
  /** What an admin's change was made to: a user, team or invitation id; for an erasure, `addressHash`. */
  subjectId?: string;
  /**
   * Who asked, as audit events name them (bundles/actor.ts `actorCode`): `api_key:<id>`,
   * `user:<id>` (a console session) or `operator` (the admin command). Only on erasures.
   */
  actor?: string;
  /** What an erasure did, counted: never the address, only its hash (in `subjectId`). */
  erasure?: { personsRemoved: number; bundlesToActOn: number; bundlesKept: number };
  ip: string;
  userAgent: string;
  at: string;
}

/** Who is at the other end of the request. */
export interface TClient {
  ip: string;
  userAgent: string;
}

/** Addresses compare without case or surrounding blanks. */
/**
 * The session's CSRF token, derived from the session id (HMAC-like, keyed by the session's own
 * secret): nothing more to store, the same answer on every read of the session, and no way to
 * compute it without the cookie, which another site's page cannot read.
 */
export const csrfOf = (sessionId: string): string =>
  createHash('sha256').update(`csrf\0${sessionId}`, 'utf8').digest('base64url');

/** Whether `presented` is the session's CSRF token, compared in constant time. */
export function csrfMatches(sessionId: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const want = Buffer.from(csrfOf(sessionId));
  const got = Buffer.from(presented);
  return want.length === got.length && timingSafeEqual(want, got);
}

export const addMinutes = (d: Date, minutes: number): Date => new Date(d.getTime() + minutes * 60_000);
