// An account's people over real HTTP against the local runtime: admins invite users (the mail in
// the local mailbox, the link accepted once), change and remove them, manage teams and read the
// security log; everyone else is refused, and another account's ids are not found.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { invitationKeys } from '#shared/adapters/dynamodb/entities/invitation';
import { dbRecorder } from '../helpers/db-recorder';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let me: TSeededAccount;
let other: TSeededAccount;
let call: ReturnType<typeof apiClient>;
const seen = new Set<string>();
const DEMO = 'demo@example.com';

beforeAll(async () => {
  runtime = await startTestRuntime();
  me = runtime.demo;
  other = await runtime.seedAccount('Other Co', 'boss@other.example');
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

const consoleApi = (path: string) => `${runtime.baseUrl}/console/api${path}`;

/** The newest invitation link mailed to `email`, and the mail. */
const mailedInvitation = (email: string) =>
  eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && !seen.has(m.id),
      );
      if (mail?.kind !== 'email') return undefined;
      seen.add(mail.id);
      const token = new RegExp(`${runtime.baseUrl}/console/invitation/([0-9A-Za-z]{43})`).exec(
        mail.text,
      )?.[1];
      return token ? { token, subject: mail.subject, text: mail.text } : undefined;
    },
    10_000,
    `the invitation to ${email}`,
  );

const invite = (email: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/invitations/', { json: { email, name: `Name of ${email}`, ...extra } });
const accept = (token: string) =>
  call('POST', consoleApi('/invitations/accept'), { key: null, json: { token } });

/** Invites `email`, accepts the mailed link: the new user's session. */
async function newUser(email: string, extra: Record<string, unknown> = {}) {
  const sent = await invite(email, extra);
  expect(sent.status, sent.text).toBe(201);
  const res = await accept((await mailedInvitation(email)).token);
  expect(res.status, res.text).toBe(201);
  const cookie = /^(esign_session=[0-9A-Za-z]{43});/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  return { cookie, csrf: res.body.csrf_token as string, userId: res.body.user.id as string };
}

const asUser = (s: { cookie: string; csrf: string }, method: string, path: string, json?: unknown) =>
  call(method, path, {
    key: null,
    ...(json !== undefined ? { json } : {}),
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
  });

describe('inviting a user', () => {
  it('mails a one-time link that makes the user, signs them in and lists them as a person', async () => {
    const team = await call('POST', '/teams/', { json: { name: 'Sales' } });
    expect(team.status, team.text).toBe(201);
    const sent = await invite('Lea@Users.Example', { teams: [team.body.id] });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ email: 'lea@users.example', is_admin: false, teams: [team.body.id] });
    expect(JSON.stringify(sent.body)).not.toMatch(/[0-9A-Za-z]{43}/);
    expect((Date.parse(sent.body.expires) - Date.parse(sent.body.created)) / 86_400_000).toBe(7);
    expect((await call('GET', '/invitations/')).body.map((i: { id: string }) => i.id)).toContain(
      sent.body.id,
    );

    const mail = await mailedInvitation('lea@users.example');
    expect(mail.text).toContain('Demo Account');
    const res = await accept(mail.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'lea@users.example', is_admin: false });
    const cookie = /^(esign_session=[0-9A-Za-z]{43});/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    const session = await call('GET', consoleApi('/session'), { key: null, headers: { cookie } });
    expect(session.body.user.id).toBe(res.body.user.id);

    const user = await call('GET', `/users/${res.body.user.id}/`);
    expect(user.body).toMatchObject({ email: 'lea@users.example', teams: [team.body.id] });
    const persons = await call('GET', '/persons/?email=lea@users.example');
    expect(persons.body.map((p: { is_user: boolean }) => p.is_user)).toEqual([true]);
    expect((await call('GET', '/invitations/')).body.map((i: { id: string }) => i.id)).not.toContain(
      sent.body.id,
    );

    const again = await accept(mail.token);
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    expect(again.body.message).toMatch(/already used/);
  });

  it('gives one user to two requests racing with one link', async () => {
    expect((await invite('race@users.example')).status).toBe(201);
    const { token } = await mailedInvitation('race@users.example');
    const both = await Promise.all([accept(token), accept(token)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const users = (await call('GET', '/users/')).body.filter(
      (u: { email: string }) => u.email === 'race@users.example',
    );
    expect(users).toHaveLength(1);
  });

  it('refuses an expired or revoked invitation with a message that says what to do', async () => {
    const late = await invite('late@users.example');
    const { token } = await mailedInvitation('late@users.example');
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: invitationKeys.item(me.accountId, late.body.id),
        UpdateExpression: 'SET expires = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const expired = await accept(token);
    expect([expired.status, expired.body.message]).toEqual([
      410,
      expect.stringMatching(/expired.*invite you again/),
    ]);

    const revoked = await invite('revoked@users.example');
    const mail = await mailedInvitation('revoked@users.example');
    expect((await call('DELETE', `/invitations/${revoked.body.id}/`)).status).toBe(204);
    expect((await call('DELETE', `/invitations/${revoked.body.id}/`)).status).toBe(409);
    expect((await accept(mail.token)).body.code).toBe('invalid_link');
  });

  it('refuses an address that is already a user', async () => {
    const res = await invite('demo@example.com');
    expect([res.status, res.body.code]).toEqual([409, 'conflict']);
  });
});

describe('who may manage people', () => {
  it('refuses a user who is not an admin, with 403', async () => {
    const plain = await newUser('plain@users.example');
    for (const [method, path] of [
      ['GET', '/users/'],
      ['POST', '/teams/'],
      ['GET', '/security_log/'],
    ] as const) {
      const res = await asUser(plain, method, path, method === 'POST' ? { name: 'X' } : undefined);
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([403, 'permission_denied']);
      expect(res.body.message).toMatch(/Only an admin/);
    }
  });

  it("answers 404 for another account's users, teams and invitations", async () => {
    const theirTeam = await call('POST', '/teams/', { key: other.apiKey, json: { name: 'Theirs' } });
    const theirInvite = await call('POST', '/invitations/', {
      key: other.apiKey,
      json: { email: 'x@other.example', name: 'X' },
    });
    for (const [method, path, json] of [
      ['GET', `/users/${other.userId}/`],
      ['PATCH', `/users/${other.userId}/`, { is_admin: false }],
      ['DELETE', `/users/${other.userId}/`],
      ['PATCH', `/teams/${theirTeam.body.id}/`, { name: 'Mine' }],
      ['DELETE', `/teams/${theirTeam.body.id}/`],
      ['DELETE', `/invitations/${theirInvite.body.id}/`],
    ] as const) {
      const res = await call(method, path, json ? { json } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', `/users/${other.userId}/`, { key: other.apiKey })).status).toBe(200);
  });
});

describe('changing and removing users', () => {
  it('keeps at least one admin: the last one cannot demote or remove themselves (409)', async () => {
    const only = await newUser('only@solo.example');
    // A fresh account whose one admin is this session's user.
    const solo = await runtime.seedAccount('Solo Co', 'solo@solo.example');
    const soloCall = (method: string, path: string, json?: unknown) =>
      call(method, path, { key: solo.apiKey, ...(json !== undefined ? { json } : {}) });
    const demote = await soloCall('PATCH', `/users/${solo.userId}/`, { is_admin: false });
    expect([demote.status, demote.body.message]).toEqual([409, expect.stringMatching(/at least one admin/)]);
    expect((await soloCall('DELETE', `/users/${solo.userId}/`)).status).toBe(409);
    expect((await soloCall('GET', `/users/${solo.userId}/`)).body.is_admin).toBe(true);
    // In the demo account there are other admins: one may step down.
    const promoted = await call('PATCH', `/users/${only.userId}/`, { json: { is_admin: true } });
    expect([promoted.status, promoted.body.is_admin]).toEqual([200, true]);
    const down = await asUser(only, 'PATCH', `/users/${only.userId}/`, { is_admin: false });
    expect([down.status, down.body.is_admin]).toEqual([200, false]);
  });

  it('never leaves the account without an admin when two admins demote each other at once', async () => {
    const pair = await runtime.seedAccount('Pair Co', 'one@pair.example');
    const asOne = (method: string, path: string, json?: unknown) =>
      call(method, path, { key: pair.apiKey, ...(json !== undefined ? { json } : {}) });
    expect(
      (await asOne('POST', '/invitations/', { email: 'two@pair.example', name: 'Two', is_admin: true }))
        .status,
    ).toBe(201);
    const two = await accept((await mailedInvitation('two@pair.example')).token);
    const twoSession = {
      cookie: /^(esign_session=[0-9A-Za-z]{43});/.exec(two.headers.get('set-cookie') ?? '')![1]!,
      csrf: two.body.csrf_token as string,
    };
    const both = await Promise.all([
      asOne('PATCH', `/users/${two.body.user.id}/`, { is_admin: false }),
      asUser(twoSession, 'PATCH', `/users/${pair.userId}/`, { is_admin: false }),
    ]);
    // One may win; the other is refused, as the last admin (409) or as no longer an admin (403).
    expect(both.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of both) expect([200, 403, 409]).toContain(r.status);
    const admins = (await asOne('GET', '/users/')).body.filter((u: { is_admin: boolean }) => u.is_admin);
    expect(admins.length).toBeGreaterThanOrEqual(1);
  });

  it("ends a removed user's sessions at once and says what became of their API keys", async () => {
    const gone = await newUser('gone@users.example');
    expect((await asUser(gone, 'GET', '/bundles/')).status).toBe(200);
    const res = await call('DELETE', `/users/${gone.userId}/`);
    expect([res.status, res.body]).toEqual([200, { id: gone.userId, api_keys_revoked: 0 }]);
    const after = await asUser(gone, 'GET', '/bundles/');
    expect([after.status, after.body.code]).toEqual([401, 'not_authenticated']);
    expect((await call('GET', `/users/${gone.userId}/`)).status).toBe(404);
    // Nobody can ask for a sign-in link for a removed user's address: it leads to no user.
    const lookups = createConsoleStore(runtime.db, runtime.config.tableName);
    expect(await lookups.usersByEmail('gone@users.example')).toEqual([]);
  });

  it('creates, renames and deletes teams; a deleted team leaves its members', async () => {
    const team = await call('POST', '/teams/', { json: { name: 'Legal' } });
    const member = await newUser('member@users.example', { teams: [team.body.id] });
    const renamed = await call('PATCH', `/teams/${team.body.id}/`, { json: { name: 'Legal & Compliance' } });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Legal & Compliance']);
    const bad = await call('PATCH', `/users/${member.userId}/`, { json: { teams: ['not-a-team'] } });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid']);
    expect((await call('DELETE', `/teams/${team.body.id}/`)).status).toBe(204);
    expect((await call('GET', `/users/${member.userId}/`)).body.teams).toEqual([]);
    expect((await call('GET', '/teams/')).body.map((t: { id: string }) => t.id)).not.toContain(team.body.id);
  });

  it('records every change with who made it, newest first, paged', async () => {
    const team = await call('POST', '/teams/', { json: { name: 'Logged' } });
    await call('DELETE', `/teams/${team.body.id}/`);
    const log = await call('GET', '/security_log/?per_page=2');
    expect(log.status, log.text).toBe(200);
    expect(log.body.map((e: { kind: string }) => e.kind)).toEqual(['team_deleted', 'team_created']);
    expect(log.body[0]).toMatchObject({ user_id: me.userId, subject_id: team.body.id });
    expect(log.headers.get('x-blueink-pagination')).toMatch(/^1,\d+,2,\d+$/);
    const kinds = new Set<string>();
    for (let page = 1; page < 50; page++) {
      const p = await call('GET', `/security_log/?page=${page}&per_page=100`);
      for (const e of p.body) kinds.add(e.kind);
      if (p.body.length < 100) break;
    }
    for (const k of [
      'user_invited',
      'invitation_accepted',
      'invitation_revoked',
      'user_changed',
      'user_removed',
      'team_renamed',
    ]) {
      expect(kinds, k).toContain(k);
    }
  });
});

describe('asking for a sign-in link', () => {
  it('does the same work before answering for a user and a stranger; the user is mailed after', async () => {
    const recorder = dbRecorder(runtime);
    const ask = (email: string) => call('POST', consoleApi('/sign-in'), { key: null, json: { email } });
    /** What the console's function read and wrote while answering, hashes and times left out. */
    const work = async (email: string) =>
      (await recorder.during(async () => expect((await ask(email)).status).toBe(202)))
        .filter((c) => c.fn === 'console')
        .map(
          (c) =>
            `${c.command} ${String(c.key?.pk)
              .replace(/[0-9a-f]{64}/g, '<hash>')
              .replace(/\d{10,}/g, '<t>')}`,
        );
    const forUser = await work(DEMO);
    const forStranger = await work('stranger@users.example');
    expect(forUser.length).toBeGreaterThan(0);
    expect(forStranger).toEqual(forUser);
    // The address is never looked up while answering: that is the worker's, after.
    expect(forUser.join('\n')).not.toMatch(/USEREMAIL/);
    const mail = await eventually(
      async () =>
        (await listMailbox(dataPaths(runtime.dataDir).mailbox)).find(
          (m) => m.kind === 'email' && m.to.includes(DEMO) && m.text.includes('/console/sign-in/'),
        ),
      10_000,
      'the sign-in email',
    );
    expect(mail).toBeDefined();
    const mailbox = await listMailbox(dataPaths(runtime.dataDir).mailbox);
    expect(mailbox.some((m) => m.kind === 'email' && m.to.includes('stranger@users.example'))).toBe(false);
  });
});
