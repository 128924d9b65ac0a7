// The console session check's rules of time, with a clock the test sets: a session lasts 12
// hours from its last renewal, is renewed once used past half of that, and ends with sign-out
// everywhere or its user.
import { describe, expect, it } from 'vitest';
import { checkConsoleSession } from '#shared/domain/console/check-console-session';
import type { TConsoleSession } from '#shared/domain/console/console-session';
import type { TConsoleStore } from '#shared/domain/ports/console';
import { hashToken } from '#shared/domain/tokens';

const HOUR = 3_600_000;
const SESSION_ID = 'S'.repeat(43);
const start = new Date('2026-11-27T08:00:00.000Z');

/** One session and its user, in memory: the part of the store the check uses. */
function world(user: { from?: string } | 'gone' = {}) {
  const session: TConsoleSession = {
    hash: hashToken(SESSION_ID),
    accountId: 'A1',
    userId: 'U1',
    created: start.toISOString(),
    expires: new Date(start.getTime() + 12 * HOUR).toISOString(),
    usageKeyId: 'console-A1',
    usageKeyValue: 'v',
  };
  const store = {
    getSession: async (hash: string) => (hash === session.hash ? { ...session } : undefined),
    renewSession: async (_hash: string, expires: string) => {
      session.expires = expires;
    },
    userSessionsFrom: async () => (user === 'gone' ? undefined : user),
  } as unknown as TConsoleStore;
  const at = (hours: number) => ({
    console: store,
    clock: { now: () => new Date(start.getTime() + hours * HOUR) },
  });
  return { session, at };
}

describe('a console session', () => {
  it('is kept as it is before half its life, renewed for 12 hours after', async () => {
    const w = world();
    expect((await checkConsoleSession(w.at(5), SESSION_ID))?.renewed).toBe(false);
    const renewed = await checkConsoleSession(w.at(7), SESSION_ID);
    expect(renewed?.renewed).toBe(true);
    expect(w.session.expires).toBe(new Date(start.getTime() + 19 * HOUR).toISOString());
    // Renewed, it outlives the first 12 hours; unused for 12 more, it ends.
    expect(await checkConsoleSession(w.at(13), SESSION_ID)).toBeDefined();
    expect(await checkConsoleSession(w.at(13 + 12), SESSION_ID)).toBeUndefined();
  });

  it('ends at 12 hours when unused, and for a value of the wrong shape', async () => {
    expect(await checkConsoleSession(world().at(12), SESSION_ID)).toBeUndefined();
    expect(await checkConsoleSession(world().at(1), 'short')).toBeUndefined();
    expect(await checkConsoleSession(world().at(1), undefined)).toBeUndefined();
  });

  it('ends when its user signed out everywhere after it began, or is gone', async () => {
    const later = new Date(start.getTime() + HOUR).toISOString();
    const earlier = new Date(start.getTime() - HOUR).toISOString();
    expect(await checkConsoleSession(world({ from: later }).at(2), SESSION_ID)).toBeUndefined();
    expect(await checkConsoleSession(world({ from: earlier }).at(2), SESSION_ID)).toBeDefined();
    expect(await checkConsoleSession(world('gone').at(2), SESSION_ID)).toBeUndefined();
  });
});
