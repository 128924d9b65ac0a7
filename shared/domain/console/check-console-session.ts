import type { TConsoleStore } from '../ports/console';
import type { TClock } from '../ports/system';
import { hashToken, isToken } from '../tokens';
import { addMinutes, SESSION_IDLE_HOURS, type TConsoleSession } from './console-session';

/**
 * The live session behind a cookie's value, or undefined: unknown, expired, signed out, its user
 * signed out everywhere since it began, or its user no longer in the account. A session used past
 * half its life is renewed for another full period (`renewed`).
 */
export async function checkConsoleSession(
  deps: { console: TConsoleStore; clock: TClock },
  sessionId: string | undefined,
): Promise<{ session: TConsoleSession; renewed: boolean } | undefined> {
  if (!isToken(sessionId)) return undefined;
  const hash = hashToken(sessionId);
  const session = await deps.console.getSession(hash);
  const now = deps.clock.now();
  if (!session || Date.parse(session.expires) <= now.getTime()) return undefined;
  const user = await deps.console.userSessionsFrom(session.accountId, session.userId);
  if (!user) return undefined;
  if (user.from && session.created <= user.from) return undefined;
  const halfLife = (SESSION_IDLE_HOURS * 3_600_000) / 2;
  if (Date.parse(session.expires) - now.getTime() >= halfLife) return { session, renewed: false };
  const expires = addMinutes(now, SESSION_IDLE_HOURS * 60).toISOString();
  await deps.console.renewSession(hash, expires);
  return { session: { ...session, expires }, renewed: true };
}
