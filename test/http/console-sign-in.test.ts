// The console's sign-in over real HTTP against the local runtime: one-time links from the local
// mailbox, the session cookie, and /api/v2 authorized by that cookie (tenant checks, CSRF, who
// acted), signing out, throttling and session fixation.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { accountKeys } from '#shared/adapters/dynamodb/entities/account';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const EMAIL = 'ana@console.example';
const PER_EMAIL = 10;

let runtime: TRuntime;
let me: TSeededAccount;
let call: ReturnType<typeof apiClient>;
const seen = new Set<string>();

beforeAll(async () => {
  runtime = await startTestRuntime({ signInLimits: { perEmail: PER_EMAIL, perIp: 1000, windowMinutes: 15 } });
  me = await runtime.seedAccount('Console Co', EMAIL);
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

const consoleApi = (path: string) => `${runtime.baseUrl}/console/api${path}`;
const askForLink = (email: string) => call('POST', consoleApi('/sign-in'), { key: null, json: { email } });

/** The newest sign-in link mailed to `email` since the last one read. */
const mailedToken = (email: string) =>
  eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seen.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      return new RegExp(`${runtime.baseUrl}/console/sign-in/([0-9A-Za-z]{43})`).exec(mail.text)?.[1];
    },
    10_000,
    `the sign-in email to ${email}`,
  );

const openSession = (token: string, headers: Record<string, string> = {}) =>
  call('POST', consoleApi('/sessions'), { key: null, json: { token }, headers });

/** Signs in by link: the cookie to send back and the session's CSRF token. */
async function signIn(email = EMAIL) {
  expect((await askForLink(email)).status).toBe(202);
  const res = await openSession(await mailedToken(email));
  expect(res.status, res.text).toBe(201);
  const cookie = /^(esign_session=[0-9A-Za-z]{43});/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  return { cookie, csrf: res.body.csrf_token as string };
}

/** Calls /api/v2 (or the console API, given a full URL) with the cookie and no key. */
const withCookie = (s: { cookie: string; csrf?: string }, method: string, path: string, json?: unknown) =>
  call(method, path, {
    key: null,
    ...(json !== undefined ? { json } : {}),
    headers: { cookie: s.cookie, ...(s.csrf ? { 'x-csrf-token': s.csrf } : {}) },
  });

describe('asking for a sign-in link', () => {
  it('answers 202 for a user and a stranger alike, and mails the user alone', async () => {
    const stranger = 'nobody@console.example';
    for (const email of [EMAIL, stranger]) {
      const res = await askForLink(email);
      expect([res.status, res.body]).toEqual([202, {}]);
    }
    expect(await mailedToken(EMAIL)).toMatch(/^[0-9A-Za-z]{43}$/);
    const mail = await listMailbox(dataPaths(runtime.dataDir).mailbox);
    expect(mail.some((m) => m.kind === 'email' && m.to.includes(stranger))).toBe(false);
  });

  it('writes the email in the account’s language', async () => {
    const de = await runtime.seedAccount('Konsole GmbH', 'eva@console.example');
    await createAccountStore(runtime.db, runtime.config.tableName).setLanguage(de.accountId, 'de');
    expect((await askForLink('eva@console.example')).status).toBe(202);
    await mailedToken('eva@console.example');
    const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
      (m) => m.kind === 'email' && m.to.includes('eva@console.example'),
    );
    expect(mail?.kind === 'email' && mail.subject).toBe('Ihr Anmeldelink');
    expect(mail?.kind === 'email' && mail.text).toContain('innerhalb von 15 Minuten');
  });

  it('is throttled per address: 429 with Retry-After in the error body', async () => {
    const flood = 'flood@console.example';
    for (let i = 0; i < PER_EMAIL; i++) expect((await askForLink(flood)).status).toBe(202);
    const res = await askForLink(flood);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('throttled');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('opening a session with the link', () => {
  it('sets the cookie and answers the session once; the link is spent after', async () => {
    expect((await askForLink(EMAIL)).status).toBe(202);
    const token = await mailedToken(EMAIL);
    const res = await openSession(token);
    expect(res.status, res.text).toBe(201);
    // Secure is left out only because the local runtime is plain http on loopback.
    expect(res.headers.get('set-cookie')).toMatch(
      /^esign_session=[0-9A-Za-z]{43}; HttpOnly; SameSite=Lax; Path=\/$/,
    );
    expect(res.body).toEqual({
      csrf_token: expect.stringMatching(/^[\w-]{43}$/),
      user: { id: me.userId, name: 'Console Co Admin', email: EMAIL, is_admin: true },
      account: { id: me.accountId, name: 'Console Co' },
      expires: expect.any(String),
    });
    const hours = (Date.parse(res.body.expires) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const again = await openSession(token);
    expect([again.status, again.body.code]).toEqual([400, 'invalid_link']);

    const cookie = /^(esign_session=[^;]+)/.exec(res.headers.get('set-cookie')!)![1]!;
    const read = await withCookie({ cookie }, 'GET', consoleApi('/session'));
    expect([read.status, read.body.user.id, read.body.csrf_token]).toEqual([
      200,
      me.userId,
      res.body.csrf_token,
    ]);
  });

  it('gives exactly one session to two requests racing with one link', async () => {
    expect((await askForLink(EMAIL)).status).toBe(202);
    const token = await mailedToken(EMAIL);
    const both = await Promise.all([openSession(token), openSession(token)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
  });

  it('never adopts a session id the browser had before signing in', async () => {
    const planted = `esign_session=${'A'.repeat(43)}`;
    expect((await withCookie({ cookie: planted }, 'GET', '/bundles/')).status).toBe(401);
    expect((await askForLink(EMAIL)).status).toBe(202);
    const res = await openSession(await mailedToken(EMAIL), { cookie: planted });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).not.toContain('A'.repeat(43));
    expect((await withCookie({ cookie: planted }, 'GET', '/bundles/')).status).toBe(401);
  });
});

describe('/api/v2 with the session cookie', () => {
  it('reads the account’s bundles, never another account’s, and changes need the CSRF token', async () => {
    const s = await signIn();
    const listed = await withCookie({ cookie: s.cookie }, 'GET', '/bundles/');
    expect(listed.status, listed.text).toBe(200);

    const other = await runtime.seedAccount('Other Co', 'owner@other.example');
    const theirs = await call('POST', '/bundles/', { key: other.apiKey, json: aBundle({}, await aPdfB64()) });
    expect(theirs.status, theirs.text).toBe(201);
    const peek = await withCookie({ cookie: s.cookie }, 'GET', `/bundles/${theirs.body.id}/`);
    expect([peek.status, peek.body.code]).toEqual([404, 'not_found']);

    const bundle = aBundle({}, await aPdfB64());
    const forged = await withCookie({ cookie: s.cookie }, 'POST', '/bundles/', bundle);
    expect([forged.status, forged.body.code]).toEqual([403, 'csrf_failed']);
    const wrong = await withCookie({ cookie: s.cookie, csrf: 'x'.repeat(43) }, 'POST', '/bundles/', bundle);
    expect([wrong.status, wrong.body.code]).toEqual([403, 'csrf_failed']);
    const made = await withCookie(s, 'POST', '/bundles/', bundle);
    expect(made.status, made.text).toBe(201);

    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const stored = (await store.get(me.accountId, made.body.id))!;
    const created = (await store.events(stored)).find((e) => e.kind === 'cr')!;
    expect(created.actor).toEqual({ type: 'user', userId: me.userId });
  });
});

describe('signing out', () => {
  it('ends this session at once, and needs the CSRF token', async () => {
    const s = await signIn();
    const forged = await withCookie({ cookie: s.cookie }, 'POST', consoleApi('/sign-out'));
    expect([forged.status, forged.body.code]).toEqual([403, 'csrf_failed']);
    const out = await withCookie(s, 'POST', consoleApi('/sign-out'));
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^esign_session=; .*Max-Age=0/);
    expect((await withCookie(s, 'GET', '/bundles/')).status).toBe(401);
    const read = await withCookie(s, 'GET', consoleApi('/session'));
    expect([read.status, read.body.code]).toEqual([401, 'not_authenticated']);
  });

  it('everywhere ends every session of the user', async () => {
    const [a, b] = [await signIn(), await signIn()];
    expect((await withCookie(b, 'GET', '/bundles/')).status).toBe(200);
    expect((await withCookie(a, 'POST', consoleApi('/sign-out-everywhere'))).status).toBe(204);
    expect((await withCookie(b, 'GET', '/bundles/')).status).toBe(401);
    expect((await withCookie(b, 'GET', consoleApi('/session'))).status).toBe(401);
    // A new sign-in works again.
    expect((await withCookie(await signIn(), 'GET', '/bundles/')).status).toBe(200);
  });

  it('ends the sessions of a user who is no longer in the account', async () => {
    const gone = await runtime.seedAccount('Gone Co', 'gone@console.example');
    const s = await signIn('gone@console.example');
    expect((await withCookie(s, 'GET', '/bundles/')).status).toBe(200);
    const key = accountKeys.user(gone.accountId, gone.userId);
    await runtime.db.send(new DeleteCommand({ TableName: runtime.config.tableName, Key: key }));
    expect((await withCookie(s, 'GET', '/bundles/')).status).toBe(401);
    expect((await withCookie(s, 'GET', consoleApi('/session'))).status).toBe(401);
  });
});
