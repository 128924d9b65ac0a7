// What a bundle's page asks of the API beyond List Bundles: a bundle's label changed by PATCH
// (and found by it), and events that say who acted (the kind of party, its id, a name where
// the service knows one) when asked with include_actor=true; without it, BlueInk's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { anEmbeddedBundle, aPdfB64 } from '../helpers/bundles';
import { signWithToken } from '../helpers/completed-bundle';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { embedToken, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

async function create() {
  const res = await call('POST', '/bundles/', { json: anEmbeddedBundle(b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("a bundle's label", () => {
  it('changes by PATCH, is recorded, and the new words find the bundle', async () => {
    const b = await create();
    const res = await call('PATCH', `/bundles/${b.id}/`, { json: { label: 'Harbour lease 2027' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.label).toBe('Harbour lease 2027');
    expect((await call('GET', `/bundles/${b.id}/`)).body.label).toBe('Harbour lease 2027');
    const found = await call('GET', '/bundles/?search=harbour');
    expect(found.body.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body;
    expect(events.at(-1)).toMatchObject({ kind: 'up', description: expect.stringContaining('label') });
  });

  it('refuses a label too long, naming the field, and keeps the old one', async () => {
    const b = await create();
    const res = await call('PATCH', `/bundles/${b.id}/`, { json: { label: 'x'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['label']);
    expect((await call('GET', `/bundles/${b.id}/`)).body.label).toBe(b.label);
  });
});

describe('who acted in an event', () => {
  it('names the signer and gives the API key as the party with its id', async () => {
    const b = await create();
    const packet = b.packets[0];
    await signWithToken(signerClient(runtime), await embedToken(call, packet.id), 'lease', ['sig']);
    const events = (await call('GET', `/bundles/${b.id}/events/?include_actor=true`)).body;
    const created = events.find((e: { kind: string }) => e.kind === 'cr');
    expect(created.actor).toEqual({ type: 'api_key', id: expect.any(String), name: null });
    const signed = events.find((e: { kind: string }) => e.kind === 'pc');
    expect(signed.actor).toEqual({ type: 'signer', id: packet.id, name: 'Ann Lee' });
    // Asked for nothing (here and with ?include=events), a client gets exactly BlueInk's four fields.
    const plain = (await call('GET', `/bundles/${b.id}/events/`)).body;
    const included = (await call('GET', `/bundles/${b.id}/?include=events`)).body.events;
    for (const e of [...plain, ...included])
      expect(Object.keys(e).sort()).toEqual(['description', 'kind', 'packet_id', 'timestamp']);
  });
});

describe("the sender hands a signer's part to another person", () => {
  it("ends the earlier signer's session, names the new signer and records who did it", async () => {
    const b = await create();
    const packet = b.packets[0];
    const sign = signerClient(runtime);
    const old = await sign('POST', '/session', undefined, { token: await embedToken(call, packet.id) });
    expect(old.status).toBe(201);
    const res = await call('POST', `/packets/${packet.id}/reassign/`, {
      json: { name: 'Cara New', email: 'cara.new@example.com' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Cara New',
      email: 'cara.new@example.com',
      deliver_via: 'email',
      status: 'se',
    });
    // The earlier signer's open session no longer signs.
    const late = await sign('PUT', '/values', old.body.session, { values: [] });
    expect(late.status).toBe(401);
    const events = (await call('GET', `/bundles/${b.id}/events/?include_actor=true`)).body;
    const handed = events.find((e: { kind: string }) => e.kind === 'ra');
    expect(handed).toMatchObject({ packet_id: packet.id, actor: { type: 'api_key' } });
    expect(handed.description).toContain('Ann Lee <ann@example.com> to Cara New <cara.new@example.com>');
    expect(events.at(-1)).toMatchObject({ kind: 'ps', packet_id: packet.id });
  });

  it('refuses the person who signs it now, a finished part, and another account', async () => {
    const b = await create();
    const packet = b.packets[0];
    const same = await call('POST', `/packets/${packet.id}/reassign/`, {
      json: { name: 'Ann', email: 'ann@example.com' },
    });
    expect([same.status, same.body.errors?.[0]?.field]).toEqual([400, 'email']);
    const other = await runtime.seedAccount('Elsewhere', 'someone@elsewhere.example');
    const theirs = await apiClient(runtime, other.apiKey)('POST', `/packets/${packet.id}/reassign/`, {
      json: { name: 'Mallory', email: 'mallory@example.com' },
    });
    expect(theirs.status).toBe(404);
    expect((await call('PUT', `/bundles/${b.id}/cancel/`)).status).toBe(200);
    const late = await call('POST', `/packets/${packet.id}/reassign/`, {
      json: { name: 'Dan', email: 'dan@example.com' },
    });
    expect(late.status).toBe(409);
    expect((await call('GET', `/bundles/${b.id}/`)).body.packets[0].name).toBe('Ann Lee');
  });
});
