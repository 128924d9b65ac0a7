import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { blueinkClient, failureOf, isApiErrorBody, type TBlueInkClient, type TJson } from './client';

// Packets (signers) through the official BlueInk JavaScript client, unchanged.

let runtime: TRuntime;
let client: TBlueInkClient;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  client = blueinkClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

const signers = [
  { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
  { key: 'kim', name: 'Kim Embed', email: 'kim@example.com', deliver_via: 'embed' },
];

async function create(overrides: Record<string, unknown> = {}): Promise<TJson> {
  const res = await client.bundles.create(aBundle({ packets: signers, ...overrides }, b64));
  expect(res.status).toBe(201);
  return res.data;
}

describe('packets.update (PATCH)', () => {
  it('changes the signer; the linked Person follows', async () => {
    const b = await create();
    const ann = b.packets[0];
    const res = await client.packets.update(ann.id, {
      name: 'Ann Lee-Smith',
      email: 'ann.smith@example.com',
      suppress_reminder: true,
    });
    expect(res.status).toBe(200);
    expect(res.pagination).toBeNull();
    expect(res.data).toMatchObject({
      id: ann.id,
      name: 'Ann Lee-Smith',
      email: 'ann.smith@example.com',
      suppress_reminder: true,
      status: 'se',
    });
    const person = await client.persons.retrieve(ann.person_id);
    expect(person.data.name).toBe('Ann Lee-Smith');
    expect(person.data.channels.map((c: TJson) => c.email)).toEqual(
      expect.arrayContaining(['ann@example.com', 'ann.smith@example.com']),
    );
    const bundle = await client.bundles.retrieve(b.id);
    expect(bundle.data.packets[0]).toEqual(res.data);
  });

  it('keeps the packet deliverable: deliver_via phone without a phone is a 400 naming phone', async () => {
    const b = await create();
    const { status, body } = await failureOf(
      client.packets.update(b.packets[0].id, { deliver_via: 'phone' }),
    );
    expect(status).toBe(400);
    expect(isApiErrorBody(body)).toBe(true);
    expect(body.code).toBe('invalid');
    expect(body.errors[0].field).toBe('phone');
    const ok = await client.packets.update(b.packets[0].id, {
      deliver_via: 'phone',
      phone: '+1 555 010 7777',
    });
    expect(ok.data).toMatchObject({ deliver_via: 'phone', phone: '+1 555 010 7777' });
  });

  it('moves an embedded signer to email: the packet is then sent, and can be reminded', async () => {
    const b = await create();
    const kim = b.packets[1];
    expect(kim.status).toBe('re');
    const res = await client.packets.update(kim.id, { deliver_via: 'email' });
    expect(res.data).toMatchObject({ deliver_via: 'email', status: 'se' });
    expect((await client.packets.remind(kim.id)).status).toBe(200);
  });

  it('is a 409 once the bundle is finished; 404 for an unknown packet', async () => {
    const b = await create();
    await client.bundles.cancel(b.id);
    const late = await failureOf(client.packets.update(b.packets[0].id, { name: 'Too Late' }));
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('conflict');
    const unknown = await failureOf(client.packets.update('AAAAAAAAAA', { name: 'Nobody' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
  });
});

describe('packets.embedUrl', () => {
  it('gives an embedded signer a fresh expiring URL (201)', async () => {
    const b = await create();
    const kim = b.packets[1];
    const first = await client.packets.embedUrl(kim.id);
    expect(first.status).toBe(201);
    expect(Object.keys(first.data).sort()).toEqual(['expires', 'url']);
    expect(first.data.url).toMatch(new RegExp(`^${runtime.baseUrl}/sign/[0-9A-Za-z]{43}$`));
    expect(Date.parse(first.data.expires)).toBeGreaterThan(Date.now());
    const second = await client.packets.embedUrl(kim.id);
    expect(second.data.url).not.toBe(first.data.url);
  });

  it('is a 409 for a signer not set for embedding, and for a draft', async () => {
    const b = await create();
    const byEmail = await failureOf(client.packets.embedUrl(b.packets[0].id));
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.code).toBe('conflict');
    expect(isApiErrorBody(byEmail.body)).toBe(true);
    const draft = await create({ status: 'dr' });
    expect((await failureOf(client.packets.embedUrl(draft.packets[1].id))).status).toBe(409);
  });
});

describe('packets.remind', () => {
  it('answers the packet; another reminder within the hour is a 400', async () => {
    const b = await create();
    const ann = b.packets[0];
    const res = await client.packets.remind(ann.id);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: ann.id, name: 'Ann Lee', status: 'se' });
    const again = await failureOf(client.packets.remind(ann.id));
    expect(again.status).toBe(400);
    expect(isApiErrorBody(again.body)).toBe(true);
    const events = await client.bundles.listEvents(b.id);
    expect(events.data.filter((e: TJson) => e.packet_id === ann.id && e.kind === 'rm')).toHaveLength(1);
  });

  it('is a 409 when the bundle is finished or still a draft', async () => {
    const b = await create();
    await client.bundles.cancel(b.id);
    const cancelled = await failureOf(client.packets.remind(b.packets[0].id));
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.code).toBe('conflict');
    const draft = await create({ status: 'dr' });
    expect((await failureOf(client.packets.remind(draft.packets[0].id))).status).toBe(409);
  });
});

describe('packets.retrieveCOE', () => {
  it('is a 409 conflict until the packet is complete', async () => {
    const b = await create();
    const { status, body, error } = await failureOf(client.packets.retrieveCOE(b.packets[0].id));
    expect(status).toBe(409);
    expect(body.code).toBe('conflict');
    expect(isApiErrorBody(body)).toBe(true);
    expect(error.config.method).toBe('get');
    expect(error.config.url).toBe(`/packets/${b.packets[0].id}/coe/`);
    const unknown = await failureOf(client.packets.retrieveCOE('AAAAAAAAAA'));
    expect(unknown.status).toBe(404);
  });
});
