// The rules of finishing a single sign-on, with stand-in ports: the refusals the local provider
// cannot be made to give over HTTP (an address it does not vouch for, an attempt past its ten
// minutes) open no session and are lines of the account's security log.
import { describe, expect, it } from 'vitest';
import type { TSecurityEvent } from '#shared/domain/console/console-session';
import type { TSsoAttempt } from '#shared/domain/console/sso-settings';
import { finishSsoSignIn, type TSsoSignInDeps } from '#shared/domain/console/sso-sign-in';
import type { TOidcIdentity } from '#shared/domain/ports/sso';
import { hashToken, newToken } from '#shared/domain/tokens';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const STATE = newToken();

function world(identity: TOidcIdentity, expires = '2026-11-27T10:05:00.000Z') {
  const attemptId = newToken();
  const attempts = new Map<string, TSsoAttempt>([
    [
      hashToken(attemptId),
      {
        hash: hashToken(attemptId),
        accountId: 'A1',
        state: STATE,
        nonce: newToken(),
        codeVerifier: newToken(),
        created: NOW.toISOString(),
        expires,
      },
    ],
  ]);
  const log: TSecurityEvent[] = [];
  const sessions: unknown[] = [];
  const deps = {
    clock: { now: () => NOW },
    ids: { uuid: () => newToken(), slug: () => 'x' },
    sso: {
      takeAttempt: async (hash: string) => {
        const a = attempts.get(hash);
        attempts.delete(hash);
        return a;
      },
      getSettings: async () => ({
        accountId: 'A1',
        issuer: 'https://id.acme.test',
        clientId: 'c',
        sealedSecret: 'sealed',
        domains: ['acme.test'],
        updated: NOW.toISOString(),
      }),
    },
    cipher: { encrypt: async (s: string) => s, decrypt: async () => 'secret' },
    oidc: { authorizationUrl: async () => '', identityOf: async () => identity },
    console: {
      usersByEmail: async () => [{ accountId: 'A1', userId: 'U1' }],
      recordSecurityEvent: async (e: TSecurityEvent) => void log.push(e),
      saveSession: async (s: unknown) => void sessions.push(s),
      getUsageKey: async () => ({ id: 'k', value: 'v' }),
    },
    accounts: {
      getUser: async () => ({
        id: 'U1',
        accountId: 'A1',
        name: 'Ann',
        email: 'ann@acme.test',
        isAdmin: false,
      }),
      getAccount: async () => ({ id: 'A1', name: 'Acme' }),
    },
    publicBaseUrl: 'https://esign.test',
  } as unknown as TSsoSignInDeps;
  const client = { ip: '203.0.113.1', userAgent: 'test' };
  const finish = () =>
    finishSsoSignIn(deps, attemptId, new URLSearchParams({ code: 'c', state: STATE }), client);
  return { finish, log, sessions };
}

describe('finishing a single sign-on', () => {
  it('opens a session for a verified address of a user of the account', async () => {
    const w = world({ subject: 's', email: 'Ann@Acme.test', emailVerified: true });
    expect((await w.finish()).ok).toBe(true);
    expect(w.sessions).toHaveLength(1);
    expect(w.log.map((e) => e.kind)).toEqual(['signed_in_with_sso']);
  });

  it('opens none for an address the provider does not vouch for', async () => {
    const w = world({ subject: 's', email: 'ann@acme.test', emailVerified: false });
    expect(await w.finish()).toMatchObject({ ok: false, reason: 'unverified_email', accountId: 'A1' });
    expect(w.sessions).toEqual([]);
    expect(w.log).toMatchObject([{ kind: 'sso_refused', reason: 'unverified_email', accountId: 'A1' }]);
  });

  it('opens none for an attempt past its time, and the attempt is spent', async () => {
    const w = world({ subject: 's', email: 'ann@acme.test', emailVerified: true }, NOW.toISOString());
    expect(await w.finish()).toMatchObject({ ok: false, reason: 'expired' });
    expect(await w.finish()).toEqual({ ok: false, reason: 'expired' });
    expect(w.sessions).toEqual([]);
    expect(w.log).toMatchObject([{ kind: 'sso_refused', reason: 'expired' }]);
  });
});
