import type { TAccount, TUser } from '../accounts/account';
import { InvalidLinkError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TConsoleStore } from '../ports/console';
import type { TClock, TIds } from '../ports/system';
import { hashToken, isToken, newToken } from '../tokens';
import {
  addMinutes,
  SESSION_IDLE_HOURS,
  type TClient,
  type TConsoleSession,
  type TSecurityEventKind,
} from './console-session';
import { type TUsageKeys, usageKeyOf } from './usage-key';

export interface TOpenedConsoleSession {
  /** The cookie's value: shown to this browser once, stored only as its hash. */
  sessionId: string;
  session: TConsoleSession;
  user: TUser;
  account: TAccount;
}

export interface TOpenSessionDeps {
  console: TConsoleStore;
  accounts: TAccountStore;
  clock: TClock;
  ids: TIds;
  usageKeys?: TUsageKeys;
}

/**
 * Trades a sign-in link's token for a new session. The link is spent by one conditional write, so
 * of two requests with the same link exactly one gets a session (made by beginSession).
 */
export async function openConsoleSession(
  deps: TOpenSessionDeps,
  input: unknown,
  client: TClient,
): Promise<TOpenedConsoleSession> {
  const token = (input as { token?: unknown } | undefined)?.token;
  if (!isToken(token)) throw new InvalidLinkError();
  const now = deps.clock.now();
  const link = await deps.console.consumeLink(hashToken(token), now);
  if (!link) throw new InvalidLinkError();
  const [user, account] = await Promise.all([
    deps.accounts.getUser(link.accountId, link.userId),
    deps.accounts.getAccount(link.accountId),
  ]);
  if (!user || !account) throw new InvalidLinkError();
  return beginSession(deps, user, account, client, 'signed_in');
}

/**
 * A new session for a user who has just proved who they are (a link, a passkey), recorded in the
 * account's security log as `kind`. The session id is always made here, never taken from the
 * request: a value planted in the browser beforehand is never adopted.
 */
export async function beginSession(
  deps: TOpenSessionDeps,
  user: TUser,
  account: TAccount,
  client: TClient,
  kind: TSecurityEventKind,
): Promise<TOpenedConsoleSession> {
  const now = deps.clock.now();
  const usage = await usageKeyOf(deps, account.id);
  const sessionId = newToken();
  const session: TConsoleSession = {
    hash: hashToken(sessionId),
    accountId: account.id,
    userId: user.id,
    created: now.toISOString(),
    expires: addMinutes(now, SESSION_IDLE_HOURS * 60).toISOString(),
    usageKeyId: usage.id,
    usageKeyValue: usage.value,
  };
  await deps.console.saveSession(session);
  await deps.console.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind,
    accountId: account.id,
    userId: user.id,
    ...client,
    at: now.toISOString(),
  });
  return { sessionId, session, user, account };
}
