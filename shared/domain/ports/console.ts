// The sender console's sign-in: one-time links, sessions, the account's console usage key and the
// security log, all found by the hash of the secret the browser holds.
import type { TConsoleSession, TSecurityEvent, TSignInLink, TUserByEmail } from '../console/console-session';

export interface TConsoleStore {
  /** The users (of any account) whose address is `normalizedEmail`. */
  usersByEmail(normalizedEmail: string): Promise<TUserByEmail[]>;
  saveLink(link: TSignInLink): Promise<void>;
  /**
   * Marks the link used, in one conditional write that holds only while it is unused and not
   * expired at `now`: the link as it was, or undefined for any other request (one winner).
   */
  consumeLink(hash: string, now: Date): Promise<TSignInLink | undefined>;
  saveSession(session: TConsoleSession): Promise<void>;
  getSession(hash: string): Promise<TConsoleSession | undefined>;
  /** Moves the session's expiry on (when it still exists). */
  renewSession(hash: string, expires: string): Promise<void>;
  deleteSession(hash: string): Promise<void>;
  /**
   * Ends every session of the user opened before `at` (sign out everywhere): one write on the
   * user; the session check compares each session's start with it.
   */
  endSessionsBefore(accountId: string, userId: string, at: string): Promise<void>;
  /** When the user last signed out everywhere, if ever; undefined when the user is gone. */
  userSessionsFrom(accountId: string, userId: string): Promise<{ from?: string } | undefined>;
  /** The usage key the account's console sessions are counted under, if it has one yet. */
  getUsageKey(accountId: string): Promise<TUsageKey | undefined>;
  /** Keeps the account's usage key unless one is there already: the one kept. */
  saveUsageKey(accountId: string, key: TUsageKey): Promise<TUsageKey>;
  /** Adds one event to the account's security log. */
  recordSecurityEvent(event: TSecurityEvent): Promise<void>;
}

/** Fixed-window counters: true while `counter` is under `limit` (and counts this one). */
export interface TCounterStore {
  take(counter: string, limit: number, expiresAt: Date): Promise<boolean>;
}

/** Sends the sign-in email, in `language` (an IETF tag; undefined: the default). */
export interface TSignInMailer {
  sendSignInLink(to: string, link: string, language: string | undefined): Promise<void>;
}

/**
 * The API Gateway key a session's requests are counted under: `value` is what the authorizer
 * hands the usage plan (an identifier the authorizer itself never accepts as a credential),
 * `id` is what the rate limit headers read.
 */
export interface TUsageKey {
  id: string;
  value: string;
}
