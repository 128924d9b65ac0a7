import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

const signers = [
  { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
  { key: 'kim', name: 'Kim Embed', email: 'kim@example.com', deliver_via: 'embed' },
];
async function create(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/bundles/', { json: aBundle({ packets: signers, ...overrides }, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('retrieve a packet', () => {
  it('answers the packet as the bundle shows it; 404 for others and for nonsense', async () => {
    const b = await create();
    const res = await call('GET', `/packets/${b.packets[0].id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(b.packets[0]);
    const other = await runtime.seedAccount('Other', 'other@example.com');
    expect((await apiClient(runtime, other.apiKey)('GET', `/packets/${b.packets[0].id}/`)).status).toBe(404);
    expect((await call('GET', '/packets/nonsense/')).status).toBe(404);
    expect((await call('GET', '/packets/AAAAAAAAAA/')).status).toBe(404);
  });
});

describe('update a packet', () => {
  it('changes the signer and the linked Person follows: name, new email as a channel', async () => {
    const b = await create();
    const p = b.packets[0];
    const res = await call('PATCH', `/packets/${p.id}/`, {
      json: { name: 'Ann Lee-Smith', email: 'ann.smith@example.com' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ann Lee-Smith', email: 'ann.smith@example.com' });
    const person = await call('GET', `/persons/${p.person_id}/`);
    expect(person.body.name).toBe('Ann Lee-Smith');
    expect(person.body.channels.map((c: { email: string }) => c.email)).toEqual(
      expect.arrayContaining(['ann@example.com', 'ann.smith@example.com']),
    );
  });

  it('keeps the packet deliverable', async () => {
    const b = await create();
    const p = b.packets[0];
    const noPhone = await call('PATCH', `/packets/${p.id}/`, { json: { deliver_via: 'phone' } });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.errors[0].field).toBe('phone');
    const withPhone = await call('PATCH', `/packets/${p.id}/`, {
      json: { deliver_via: 'phone', phone: '+1 555 010 7777' },
    });
    expect(withPhone.status, withPhone.text).toBe(200);
    expect(withPhone.body).toMatchObject({ deliver_via: 'phone', phone: '+1 555 010 7777' });
    expect((await call('PATCH', `/packets/${p.id}/`, { json: { deliver_via: 'embed' } })).status).toBe(400);
    const sms = await call('PATCH', `/packets/${b.packets[1].id}/`, { json: { auth_sms: true } });
    expect(sms.status).toBe(400);
    expect(sms.body.errors[0].field).toBe('phone');
  });

  it('moves an embedded signer to email without sending anything', async () => {
    const b = await create();
    const kim = b.packets[1];
    expect(kim.status).toBe('re');
    const res = await call('PATCH', `/packets/${kim.id}/`, { json: { deliver_via: 'email' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deliver_via: 'email', status: 'se' });
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(events.body.filter((e: { kind: string }) => e.kind === 'ps')).toHaveLength(1);
  });

  it('takes signing_complete_redirect only with the signing brands feature, and at most 400 characters', async () => {
    const b = await create();
    const p = b.packets[0];
    const off = await call('PATCH', `/packets/${p.id}/`, {
      json: { signing_complete_redirect: 'https://example.com/done' },
    });
    expect(off.status).toBe(400);
    expect(off.body.errors[0].field).toBe('signing_complete_redirect');
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
      signing_brands: true,
    });
    const on = await call('PATCH', `/packets/${p.id}/`, {
      json: { signing_complete_redirect: 'https://example.com/done' },
    });
    expect(on.body.signing_complete_redirect).toBe('https://example.com/done');
    const long = await call('PATCH', `/packets/${p.id}/`, {
      json: { signing_complete_redirect: `https://example.com/${'x'.repeat(400)}` },
    });
    expect(long.status).toBe(400);
  });

  it('is refused once the bundle is finished', async () => {
    const b = await create();
    await call('PUT', `/bundles/${b.id}/cancel/`);
    expect((await call('PATCH', `/packets/${b.packets[0].id}/`, { json: { name: 'Late' } })).status).toBe(
      409,
    );
  });
});

describe('embedded signing URL', () => {
  it('gives a fresh, expiring, unguessable link to an embedded signer who can sign now', async () => {
    const b = await create();
    const kim = b.packets[1];
    const first = await call('POST', `/packets/${kim.id}/embed_url/`);
    expect(first.status, first.text).toBe(201);
    expect(first.body.url).toMatch(new RegExp(`^${runtime.baseUrl}/sign/[0-9A-Za-z]{43}$`));
    const expires = Date.parse(first.body.expires);
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    const second = await call('POST', `/packets/${kim.id}/embed_url/`);
    expect(second.body.url).not.toBe(first.body.url);
  });

  it('is 409 for a signer not set for embedding, and for a draft', async () => {
    const b = await create();
    expect((await call('POST', `/packets/${b.packets[0].id}/embed_url/`)).status).toBe(409);
    const draft = await create({ status: 'dr' });
    expect((await call('POST', `/packets/${draft.packets[1].id}/embed_url/`)).status).toBe(409);
  });
});

describe('reminders', () => {
  it('records a reminder, sends its message, and refuses another within the hour', async () => {
    const b = await create({ label: 'Reminded lease' });
    const ann = b.packets[0];
    const res = await call('PUT', `/packets/${ann.id}/remind/`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(ann.id);
    const again = await call('PUT', `/packets/${ann.id}/remind/`);
    expect(again.status).toBe(400);
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(events.body.filter((e: { kind: string }) => e.kind === 'rm')).toHaveLength(1);

    // The notifications worker consumes the queue: the reminder lands in the mailbox.
    const subject = 'Reminder: Please sign: Reminded lease';
    const reminders = async () =>
      (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
        (m): m is TMailboxEmail => m.kind === 'email' && m.subject === subject,
      );
    const deadline = Date.now() + 10_000;
    while ((await reminders()).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const [reminder, ...more] = await reminders();
    expect(more).toEqual([]);
    expect(reminder).toMatchObject({ to: ['ann@example.com'] });
    expect(reminder!.text).toMatch(new RegExp(`${runtime.baseUrl}/sign/[0-9A-Za-z]{43}`));
  });

  it('is 409 when the bundle is finished or still a draft', async () => {
    const b = await create();
    await call('PUT', `/bundles/${b.id}/cancel/`);
    expect((await call('PUT', `/packets/${b.packets[0].id}/remind/`)).status).toBe(409);
    const draft = await create({ status: 'dr' });
    expect((await call('PUT', `/packets/${draft.packets[0].id}/remind/`)).status).toBe(409);
  });
});

describe('certificate of evidence', () => {
  it('is 409 until the packet is complete', async () => {
    const b = await create();
    const res = await call('GET', `/packets/${b.packets[0].id}/coe/`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });
});
