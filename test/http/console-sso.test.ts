// The console's single sign-on over real HTTP, against the local OIDC stand-in (oidc-provider):
// the demo account is set up with it on start, as `npm start` shows. A sign-in through it opens
// a session that works on /api/v2; a tampered state, a replayed answer and a user of another
// account open none, and each refusal is a line of the account's security log.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '#infra/local/demo-account';
import type { TRuntime } from '#infra/local/runtime';
import { accountPartition } from '#shared/adapters/dynamodb/entities/account-partition';
import { startTestRuntime } from '../helpers/runtime';
import { ssoSignIn } from '../helpers/sso-flow';

let runtime: TRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.stop());

/** The demo account's security log, oldest first. */
async function securityLog() {
  const out = await runtime.db.send(
    new QueryCommand({
      TableName: runtime.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':pk': accountPartition(runtime.demo.accountId), ':s': 'SECURITY#' },
    }),
  );
  return (out.Items ?? []) as { kind: string; userId?: string; reason?: string }[];
}

describe('single sign-on with the account provider', () => {
  it('signs the demo user in through the stand-in, and the session works on /api/v2', async () => {
    const run = await ssoSignIn(runtime.baseUrl, DEMO_EMAIL, DEMO_EMAIL);
    expect(run.landed).toBe('/console/');
    expect(run.session).toBeTruthy();
    const session = await fetch(`${runtime.baseUrl}/console/api/session`, {
      headers: { cookie: run.session! },
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(DEMO_EMAIL);
    const bundles = await fetch(`${runtime.apiUrl}bundles/`, { headers: { cookie: run.session! } });
    expect(bundles.status).toBe(200);
    expect((await securityLog()).some((e) => e.kind === 'signed_in_with_sso')).toBe(true);

    // The provider's answer works once: replayed, the attempt is gone.
    const replay = await fetch(run.callback!, { redirect: 'manual' });
    expect(replay.headers.get('location')).toBe(`${runtime.baseUrl}/console/?sso=expired`);
    expect(replay.headers.get('set-cookie') ?? '').not.toContain('esign_session=');
  });

  it('opens no session for a tampered state, and logs it', async () => {
    const run = await ssoSignIn(runtime.baseUrl, DEMO_EMAIL, DEMO_EMAIL, (u) =>
      u.searchParams.set('state', `${u.searchParams.get('state')}x`),
    );
    expect(run.landed).toBe('/console/?sso=state');
    expect(run.session).toBeUndefined();
    expect((await securityLog()).some((e) => e.kind === 'sso_refused' && e.reason === 'state')).toBe(true);
  });

  it('opens no session for a user of another account the provider vouches for', async () => {
    const other = await runtime.seedAccount('Other Co', 'bo@example.com');
    const run = await ssoSignIn(runtime.baseUrl, DEMO_EMAIL, 'bo@example.com');
    expect(run.landed).toBe('/console/?sso=unknown_user');
    expect(run.session).toBeUndefined();
    const refused = (await securityLog()).filter(
      (e) => e.kind === 'sso_refused' && e.reason === 'unknown_user',
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]?.userId).toBeUndefined();
    expect(other.accountId).not.toBe(runtime.demo.accountId);
  });

  it('answers the same for every address of a domain without single sign-on', async () => {
    await runtime.seedAccount('Plain Co', 'cy@plain.example');
    for (const email of ['cy@plain.example', 'nobody@plain.example']) {
      const run = await ssoSignIn(runtime.baseUrl, email, email);
      expect(run.landed).toBe('/console/?sso=not_configured');
      expect(run.jar.get(runtime.baseUrl)?.has('esign_sso') ?? false).toBe(false);
    }
  });
});
