// Passkeys over real HTTP against the local runtime on http://localhost (WebAuthn's relying party
// must be a domain): a software authenticator in the test registers one with a session and signs
// in with it. Answers spent once, counters, origins, other accounts, removed users, throttling,
// and the security log.
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { accountKeys } from '#shared/adapters/dynamodb/entities/account';
import { passkeyChallengeEntity } from '#shared/adapters/dynamodb/entities/passkey';
import { challengeHashOf } from '#shared/domain/console/passkey';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { softwarePasskey, type TSoftwarePasskey } from '../helpers/software-passkey';

const PER_PASSKEY = 6;
let runtime: TRuntime;
let ana: TSeededAccount;
let call: ReturnType<typeof apiClient>;
const seen = new Set<string>();

beforeAll(async () => {
  runtime = await startTestRuntime({
    host: 'localhost',
    signInLimits: { perEmail: PER_PASSKEY, perIp: 1000, windowMinutes: 15 },
  });
  ana = await runtime.seedAccount('Passkey Co', 'ana@passkeys.example');
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

const url = (path: string) => `${runtime.baseUrl}/console/api${path}`;
type TSession = { cookie: string; csrf: string };

/** Signs in by email link from the local mailbox. */
async function signInByLink(email: string): Promise<TSession> {
  expect((await call('POST', url('/sign-in'), { key: null, json: { email } })).status).toBe(202);
  const token = await eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seen.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      return /\/console\/sign-in\/([0-9A-Za-z]{43})/.exec(mail.text)?.[1];
    },
    10_000,
    `the sign-in email to ${email}`,
  );
  const res = await call('POST', url('/sessions'), { key: null, json: { token } });
  expect(res.status, res.text).toBe(201);
  return {
    cookie: /^(esign_session=[0-9A-Za-z]{43})/.exec(res.headers.get('set-cookie')!)![1]!,
    csrf: res.body.csrf_token,
  };
}

const as = (s: TSession | undefined, method: string, path: string, json?: unknown) =>
  call(method, url(path), {
    key: null,
    ...(json !== undefined ? { json } : {}),
    headers: s ? { cookie: s.cookie, 'x-csrf-token': s.csrf } : {},
  });

/** Registers a new software passkey for the session's user; answers it and its id. */
async function addPasskey(s: TSession, name: string, origin = runtime.baseUrl) {
  const device = softwarePasskey('localhost', origin);
  const options = await as(s, 'POST', '/passkeys/options');
  expect(options.status, options.text).toBe(200);
  const res = await as(s, 'POST', '/passkeys', { name, response: device.create(options.body) });
  return { device, res };
}

const passkeySignIn = async (device: TSoftwarePasskey) => {
  const options = await as(undefined, 'POST', '/passkeys/sign-in/options');
  expect(options.status, options.text).toBe(200);
  return as(undefined, 'POST', '/passkeys/sign-in', { response: device.get(options.body) });
};

const securityLog = async (accountId: string) => {
  const out = await runtime.db.send(
    new QueryCommand({
      TableName: runtime.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':sk': 'SECURITY#' },
    }),
  );
  return (out.Items ?? []).map((i) => `${i.kind} ${i.userId}`);
};

const REFUSED = { status: 401, code: 'authentication_failed' };
const refusal = (res: { status: number; body: { code: string } }) => ({
  status: res.status,
  code: res.body.code,
});

describe('a user’s passkeys', () => {
  it('are added with the session and its CSRF token, listed, and sign in to a fresh session', async () => {
    const s = await signInByLink('ana@passkeys.example');
    const noCsrf = await call('POST', url('/passkeys/options'), { key: null, headers: { cookie: s.cookie } });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'csrf_failed']);
    expect((await as(undefined, 'GET', '/passkeys')).status).toBe(401);

    const options = await as(s, 'POST', '/passkeys/options');
    expect(options.body.rp).toEqual({ id: 'localhost', name: 'eSignature console' });
    expect(options.body.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    const device = softwarePasskey('localhost', runtime.baseUrl);
    const answer = device.create(options.body);
    const unnamed = await as(s, 'POST', '/passkeys', { name: ' ', response: answer });
    expect([unnamed.status, unnamed.body.errors?.[0]?.field]).toEqual([400, 'name']);
    const added = await as(s, 'POST', '/passkeys', { name: '  Work laptop ', response: answer });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      name: 'Work laptop',
      created: expect.any(String),
      last_used: null,
      synced: false,
    });
    // The challenge is spent: the same answer again adds nothing.
    const again = await as(s, 'POST', '/passkeys', { name: 'Again', response: answer });
    expect([again.status, again.body.errors?.[0]?.field]).toEqual([400, 'response']);
    expect((await as(s, 'GET', '/passkeys')).body.map((p: { id: string }) => p.id)).toEqual([added.body.id]);

    const signedIn = await passkeySignIn(device);
    expect(signedIn.status, signedIn.text).toBe(201);
    expect(signedIn.body.user).toEqual({
      id: ana.userId,
      name: 'Passkey Co Admin',
      email: 'ana@passkeys.example',
      is_admin: true,
    });
    const cookie = /^esign_session=([0-9A-Za-z]{43}); HttpOnly; SameSite=Lax; Path=\/$/.exec(
      signedIn.headers.get('set-cookie')!,
    )?.[1];
    expect(cookie).toBeDefined();
    expect(`esign_session=${cookie}`).not.toBe(s.cookie);
    const fresh = { cookie: `esign_session=${cookie}`, csrf: signedIn.body.csrf_token };
    expect((await as(fresh, 'GET', '/session')).body.user.id).toBe(ana.userId);
    expect((await as(fresh, 'GET', '/passkeys')).body[0].last_used).toEqual(expect.any(String));
    expect(await securityLog(ana.accountId)).toEqual(
      expect.arrayContaining([`passkey_added ${ana.userId}`, `signed_in_with_passkey ${ana.userId}`]),
    );
  });

  it('refuse, with one answer, a replay, a lagging counter, another origin, an expired challenge and a stranger', async () => {
    const s = await signInByLink('ana@passkeys.example');
    const { device } = await addPasskey(s, 'Phone');
    // The same answer twice: its challenge is spent.
    const options = (await as(undefined, 'POST', '/passkeys/sign-in/options')).body;
    const answer = device.get(options);
    expect((await as(undefined, 'POST', '/passkeys/sign-in', { response: answer })).status).toBe(201);
    expect(refusal(await as(undefined, 'POST', '/passkeys/sign-in', { response: answer }))).toEqual(REFUSED);
    // A copy of the key whose counter lags behind the one stored (a cloned authenticator).
    device.counter = 0;
    expect(refusal(await passkeySignIn(device))).toEqual(REFUSED);
    // An answer made on another site, to add a passkey or to sign in with one.
    const { res } = await addPasskey(s, 'Elsewhere', 'http://evil.localhost:9');
    expect([res.status, res.body.errors?.[0]?.field]).toEqual([400, 'response']);
    device.counter = 100;
    device.origin = 'http://evil.localhost:9';
    expect(refusal(await passkeySignIn(device))).toEqual(REFUSED);
    device.origin = runtime.baseUrl;
    expect((await passkeySignIn(device)).status).toBe(201);
    // An expired challenge.
    const { device: laptop } = await addPasskey(s, 'Laptop');
    const challenge = 'expiredChallenge0123456789abcdefghijklmnop';
    const item = passkeyChallengeEntity.toItem({
      hash: challengeHashOf(challenge),
      purpose: 'sign_in',
      expires: new Date(Date.now() - 1000).toISOString(),
    });
    await runtime.db.send(new PutCommand({ TableName: runtime.config.tableName, Item: item }));
    const stale = laptop.get({ challenge, rpId: 'localhost' } as never);
    expect(refusal(await as(undefined, 'POST', '/passkeys/sign-in', { response: stale }))).toEqual(REFUSED);
    // A passkey no one registered: the same answer as a known one's refusal.
    expect(refusal(await passkeySignIn(softwarePasskey('localhost', runtime.baseUrl)))).toEqual(REFUSED);
    expect(await securityLog(ana.accountId)).toContain(`passkey_sign_in_failed ${ana.userId}`);
  });

  it('are the owner’s alone: another account neither lists nor removes them; a removed user’s signs no one in', async () => {
    const s = await signInByLink('ana@passkeys.example');
    const { device, res } = await addPasskey(s, 'Desk key');
    const id = res.body.id as string;
    const bob = await runtime.seedAccount('Other Co', 'bob@passkeys.example');
    const b = await signInByLink('bob@passkeys.example');
    expect((await as(b, 'GET', '/passkeys')).body).toEqual([]);
    expect((await as(b, 'DELETE', `/passkeys/${id}`)).status).toBe(404);
    expect((await as(b, 'DELETE', '/passkeys/not-an-id')).status).toBe(404);
    expect((await as(s, 'GET', '/passkeys')).body.map((p: { id: string }) => p.id)).toContain(id);

    // Bob's own passkey stops working once Bob is no longer a user of his account.
    const { device: bobs } = await addPasskey(b, 'Bob’s');
    await runtime.db.send(
      new DeleteCommand({
        TableName: runtime.config.tableName,
        Key: accountKeys.user(bob.accountId, bob.userId),
      }),
    );
    expect(refusal(await passkeySignIn(bobs))).toEqual(REFUSED);

    expect((await as(s, 'DELETE', `/passkeys/${id}`)).status).toBe(204);
    expect((await as(s, 'DELETE', `/passkeys/${id}`)).status).toBe(404);
    expect(refusal(await passkeySignIn(device))).toEqual(REFUSED);
    expect(await securityLog(ana.accountId)).toContain(`passkey_removed ${ana.userId}`);
  });

  it('give one session to two sign-ins racing with one counter value', async () => {
    const s = await signInByLink('ana@passkeys.example');
    const { device } = await addPasskey(s, 'Tablet');
    const [first, second] = await Promise.all(
      [1, 2].map(async () => (await as(undefined, 'POST', '/passkeys/sign-in/options')).body),
    );
    const a = device.get(first);
    device.counter -= 1;
    const b = device.get(second);
    const both = await Promise.all(
      [a, b].map((response) => as(undefined, 'POST', '/passkeys/sign-in', { response })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 401]);
  });

  it('are throttled per passkey like links per address: 429 with Retry-After', async () => {
    const s = await signInByLink('ana@passkeys.example');
    const { device } = await addPasskey(s, 'Spare');
    device.counter = 1000;
    for (let i = 0; i < PER_PASSKEY; i++) expect((await passkeySignIn(device)).status).toBe(201);
    const res = await passkeySignIn(device);
    expect([res.status, res.body.code]).toEqual([429, 'throttled']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
