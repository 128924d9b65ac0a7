import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let accounts: ReturnType<typeof createAccountStore>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
  accounts = createAccountStore(runtime.db, runtime.config.tableName);
});
afterAll(() => runtime.stop());

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/bundles/', { json: aBundle(overrides, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const patch = (id: string, json: unknown, key?: string) =>
  call('PATCH', `/bundles/${id}/`, { json, ...(key ? { key } : {}) });
const fields = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);

describe('partially update a bundle', () => {
  it('changes cc settings and records an event', async () => {
    const b = await create();
    const res = await patch(b.id, { cc_sender: true, cc_emails: ['boss@example.com'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ cc_sender: true, cc_emails: ['boss@example.com'] });
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(events.body.at(-1)).toMatchObject({
      kind: 'up',
      description: 'Bundle updated: cc_sender, cc_emails',
    });
  });

  it('refuses reminder settings without the Reminders feature, naming each field', async () => {
    const other = await runtime.seedAccount('No Reminders', 'nr@example.com');
    const theirs = apiClient(runtime, other.apiKey);
    const b = (await theirs('POST', '/bundles/', { json: aBundle({}, b64) })).body;
    const res = await theirs('PATCH', `/bundles/${b.id}/`, {
      json: { send_reminders: true, reminder_offset: 2 },
    });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['send_reminders', 'reminder_offset']);
    await accounts.setFeatures(other.accountId, { reminders: true });
    const ok = await theirs('PATCH', `/bundles/${b.id}/`, {
      json: { send_reminders: true, reminder_offset: 2, reminder_interval: 3 },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ send_reminders: true, reminder_offset: 2, reminder_interval: 3 });
    expect((await theirs('PATCH', `/bundles/${b.id}/`, { json: { reminder_expires: 31 } })).status).toBe(400);
  });

  it('sets and clears a team of the account when teams are enabled', async () => {
    const b = await create();
    const teamId = randomIds.uuid();
    const off = await patch(b.id, { team: teamId });
    expect(fields(off)).toEqual(['team']);
    await accounts.setFeatures(runtime.demo.accountId, { teams: true });
    await accounts.addTeam({
      id: teamId,
      accountId: runtime.demo.accountId,
      name: 'Sales',
      created: new Date().toISOString(),
    });
    expect((await patch(b.id, { team: randomIds.uuid() })).status).toBe(400);
    expect((await patch(b.id, { team: teamId })).body.team).toBe(teamId);
    expect((await patch(b.id, { team: null })).body.team).toBeNull();
  });

  it('lets only admins set the owner, to a user of the account', async () => {
    const b = await create();
    const admin = await patch(b.id, { owner: runtime.demo.userId });
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body.owner).toBe(runtime.demo.userId);
    expect(fields(await patch(b.id, { owner: randomIds.uuid() }))).toEqual(['owner']);

    const userId = randomIds.uuid();
    await accounts.addUser({
      id: userId,
      accountId: runtime.demo.accountId,
      name: 'Plain',
      email: 'plain@example.com',
      isAdmin: false,
      created: new Date().toISOString(),
    });
    const { secret } = await issueApiKey(
      {
        accounts,
        keys: createApiKeyStore(runtime.db, runtime.config.tableName),
        clock: systemClock,
        ids: randomIds,
      },
      runtime.demo.accountId,
      userId,
    );
    const plain = await patch(b.id, { owner: userId }, secret);
    expect(plain.status).toBe(403);
    expect(plain.body.code).toBe('permission_denied');
    expect((await patch(b.id, { cc_sender: true }, secret)).status).toBe(200);
  });

  it('keeps the time of day when a sent bundle moves its expiry date', async () => {
    const b = await create({ status: 'dr' });
    expect((await patch(b.id, { expires: '2031-01-15T15:30:00Z' })).body.expires).toBe(
      '2031-01-15T15:30:00.000Z',
    );
    await call('POST', `/bundles/${b.id}/send/`);
    const moved = await patch(b.id, { expires: '2031-03-01' });
    expect(moved.body.expires).toBe('2031-03-01T15:30:00.000Z');
    const past = await patch(b.id, { expires: '2001-01-01' });
    expect(past.status).toBe(400);
    expect(fields(past)).toEqual(['expires']);
  });

  it('is refused once the bundle is finished', async () => {
    const b = await create();
    await call('PUT', `/bundles/${b.id}/cancel/`);
    const res = await patch(b.id, { cc_sender: true });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('survives two racing PATCHes and a cancel with one event each', async () => {
    const b = await create();
    const answers = await Promise.all([
      patch(b.id, { cc_sender: true }),
      patch(b.id, { cc_emails: ['x@example.com'] }),
      call('PUT', `/bundles/${b.id}/cancel/`),
    ]);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const got = await call('GET', `/bundles/${b.id}/?include=events`);
    expect(got.body.status).toBe('ca');
    const kinds = got.body.events.map((e: { kind: string }) => e.kind);
    const applied = answers.slice(0, 2).filter((a) => a.status === 200).length;
    expect(kinds.filter((k: string) => k === 'up')).toHaveLength(applied);
    expect(kinds.filter((k: string) => k === 'ca')).toHaveLength(1);
  });
});
