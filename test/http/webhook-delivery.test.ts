import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { readmeVerifier } from '../helpers/readme-verifier';
import { eventually, startReceiver, type TReceivedCall, type TReceiver } from '../helpers/receiver';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let receiver: TReceiver;
let pdf: string;
let verify: Awaited<ReturnType<typeof readmeVerifier>>;

beforeAll(async () => {
  // 1/240: retries after 1, 3, 9, 27 and 81 seconds instead of minutes.
  runtime = await startTestRuntime({ webhookRetryScale: 1 / 240 });
  call = apiClient(runtime);
  receiver = await startReceiver();
  pdf = await aPdfB64();
  verify = await readmeVerifier();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

let paths = 0;
/** A webhook to its own receiver path, so each test reads only its own calls. */
async function hook(overrides: Record<string, unknown> = {}, c = call) {
  const path = `/hook-${++paths}`;
  const res = await c('POST', '/webhooks/', {
    json: { url: receiver.url(path), event_types: ['bundle_sent', 'bundle_cancelled'], ...overrides },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, path };
}

async function sendBundle(overrides: Record<string, unknown> = {}, c = call) {
  const res = await c('POST', '/bundles/', { json: aBundle(overrides, pdf) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const json = (c: TReceivedCall) => JSON.parse(c.body);
const secretOf = async (c = call) => (await c('GET', '/webhooks/secret/')).body.secret as string;

describe('delivery of bundle events', () => {
  it('posts bundle_sent with the documented body, headers in order and both signatures', async () => {
    const h = await hook({
      event_types: ['bundle_sent'],
      extra_headers: [
        { name: 'X-Second', value: 'two', order: 2 },
        { name: 'X-First', value: 'one', order: 1 },
        { name: 'X-Third', value: 'three', order: 3 },
      ],
    });
    const bundleId = await sendBundle({ custom_key: 'order-77' });
    const [got] = await eventually(() => receiver.callsTo(h.path).length === 1 && receiver.callsTo(h.path));
    const body = json(got!);
    expect(body).toEqual({
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_type: 'bundle_sent',
      event_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      account_id: runtime.demo.accountId,
      payload: { bundle_id: bundleId, custom_key: 'order-77' },
    });
    const sent = (await call('GET', `/bundles/${bundleId}/`)).body.sent;
    expect(body.event_date).toBe(sent);
    expect(got!.headers['content-type']).toBe('application/json');
    const names = got!.rawHeaders.map(([n]) => n);
    expect(names.filter((n) => n.startsWith('X-') && !n.startsWith('X-BlueInk'))).toEqual([
      'X-First',
      'X-Second',
      'X-Third',
    ]);
    const secret = await secretOf();
    expect(verify(secret, got!.headers as Record<string, string>, got!.body)).toBe(true);
    expect(verify(`${secret}x`, got!.headers as Record<string, string>, got!.body)).toBe(false);
    expect(
      verify(secret, got!.headers as Record<string, string>, got!.body.replace('bundle_sent', 'bundle_sant')),
    ).toBe(false);
    expect(
      new Webhook(secret, { format: 'raw' }).verify(got!.body, got!.headers as Record<string, string>),
    ).toEqual(body);
    expect(got!.headers['webhook-id']).toBe(body.event_id);
    expect(() =>
      new Webhook('another-secret-entirely', { format: 'raw' }).verify(
        got!.body,
        got!.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('posts bundle_cancelled form-encoded to a json:false webhook', async () => {
    const h = await hook({ json: false, event_types: ['bundle_cancelled'] });
    const bundleId = await sendBundle();
    expect((await call('PUT', `/bundles/${bundleId}/cancel/`)).status).toBe(200);
    const [got] = await eventually(() => receiver.callsTo(h.path).length === 1 && receiver.callsTo(h.path));
    expect(got!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(got!.body);
    expect(form.get('event_type')).toBe('bundle_cancelled');
    expect(form.get('account_id')).toBe(runtime.demo.accountId);
    expect(JSON.parse(form.get('payload')!)).toEqual({ bundle_id: bundleId });
    expect(verify(await secretOf(), got!.headers as Record<string, string>, got!.body)).toBe(true);
    // Only the subscribed type: the bundle's bundle_sent never came here.
    expect(receiver.callsTo(h.path)).toHaveLength(1);
  });

  it('fires once per change when the same change is requested at the same moment', async () => {
    const h = await hook({ event_types: ['bundle_cancelled'] });
    const bundleId = await sendBundle();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('PUT', `/bundles/${bundleId}/cancel/`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    await eventually(() => receiver.callsTo(h.path).length === 1);
    // Publishing again (what the sweeper does) finds nothing new to send.
    await runtime.workers.sweepOutboxes();
    const events = await call('GET', `/webhooks/events/?webhook=${h.id}`);
    expect(events.body).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.callsTo(h.path)).toHaveLength(1);
  });
});

describe('retries', () => {
  it('delivers on the third attempt after two failures, with three delivery records', async () => {
    const h = await hook({ event_types: ['bundle_sent'] });
    receiver.on(h.path, (_c, nth) => (nth <= 2 ? 503 : 204));
    await sendBundle();
    await eventually(() => receiver.callsTo(h.path).length === 3, 30_000, 'the third attempt');
    const ids = receiver.callsTo(h.path).map((c) => json(c).event_id);
    expect(new Set(ids).size).toBe(1);
    const event = await eventually(async () => {
      const e = (await call('GET', `/webhooks/events/${ids[0]}/`)).body;
      return e.success && e;
    });
    expect(event).toMatchObject({
      pk: ids[0],
      webhook: h.id,
      event_type: 'bundle_sent',
      status: 204,
      success: true,
    });
    expect(event.deliveries.map((d: { status: number }) => d.status)).toEqual([503, 503, 204]);
    expect(event.deliveries[0].message).toContain('503');
    const deliveries = await call('GET', `/webhooks/deliveries/?webhook_event=${ids[0]}`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.headers.get('x-blueink-pagination')).toBe('1,1,50,3');
    // Newest first.
    expect(deliveries.body.map((d: { status: number }) => d.status)).toEqual([204, 503, 503]);
    expect(deliveries.body[0]).toMatchObject({
      webhook: h.id,
      webhook_event: ids[0],
      event_type: 'bundle_sent',
      success: true,
      message: '',
    });
    const one = await call('GET', `/webhooks/deliveries/${deliveries.body[2].pk}/`);
    expect(one.body).toMatchObject({ pk: deliveries.body[2].pk, status: 503, success: false });
  });

  it('cuts a receiver that does not answer at 10 seconds and records status 0', async () => {
    const h = await hook({ event_types: ['bundle_sent'] });
    receiver.on(h.path, () => 'hang');
    await sendBundle();
    const delivery = await eventually(
      async () => (await call('GET', `/webhooks/deliveries/?webhook=${h.id}`)).body[0],
      30_000,
      'the first delivery record',
    );
    expect(delivery.status).toBe(0);
    expect(delivery.success).toBe(false);
    expect(delivery.message).toMatch(/no answer within 10 s/);
    // Stop its retries from hanging on into the other tests.
    await call('PATCH', `/webhooks/${h.id}/`, { json: { enabled: false } });
  }, 40_000);
});

describe('the shared secret', () => {
  it('signs with the new secret after regeneration and with the old one during the overlap', async () => {
    const before = await secretOf();
    const regenerated = await call('POST', '/webhooks/secret/regenerate/');
    const after = regenerated.body.secret as string;
    expect(after).not.toBe(before);
    const h = await hook({ event_types: ['bundle_sent'] });
    await sendBundle();
    const [got] = await eventually(() => receiver.callsTo(h.path).length === 1 && receiver.callsTo(h.path));
    const headers = got!.headers as Record<string, string>;
    expect(headers['x-blueink-signature']!.split(',')).toHaveLength(2);
    for (const secret of [after, before]) {
      expect(verify(secret, headers, got!.body)).toBe(true);
      expect(new Webhook(secret, { format: 'raw' }).verify(got!.body, headers)).toMatchObject({
        event_type: 'bundle_sent',
      });
    }
  });
});

describe('who gets what', () => {
  it('sends nothing to a disabled webhook and logs nothing for it', async () => {
    const off = await hook({ enabled: false, event_types: ['bundle_sent'] });
    const on = await hook({ event_types: ['bundle_sent'] });
    await sendBundle();
    await eventually(() => receiver.callsTo(on.path).length === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.callsTo(off.path)).toHaveLength(0);
    expect((await call('GET', `/webhooks/events/?webhook=${off.id}`)).body).toEqual([]);
  });

  it("never shows one account's events to another", async () => {
    const other = await runtime.seedAccount('Other Co', 'other@example.com');
    const callB = apiClient(runtime, other.apiKey);
    const a = await hook({ event_types: ['bundle_sent'] });
    const b = await hook({ event_types: ['bundle_sent'] }, callB);
    const bundleB = await sendBundle({}, callB);
    const [got] = await eventually(() => receiver.callsTo(b.path).length === 1 && receiver.callsTo(b.path));
    expect(json(got!)).toMatchObject({ account_id: other.accountId, payload: { bundle_id: bundleB } });
    expect(verify(await secretOf(callB), got!.headers as Record<string, string>, got!.body)).toBe(true);
    expect(verify(await secretOf(), got!.headers as Record<string, string>, got!.body)).toBe(false);
    await sendBundle();
    await eventually(() => receiver.callsTo(a.path).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.callsTo(b.path)).toHaveLength(1);
    expect(receiver.callsTo(a.path).map((c) => json(c).account_id)).toEqual([runtime.demo.accountId]);
    const eventOfB = json(got!).event_id as string;
    expect((await call('GET', `/webhooks/events/${eventOfB}/`)).status).toBe(404);
    expect((await call('POST', `/webhooks/events/${eventOfB}/redeliver/`)).status).toBe(404);
    expect((await call('GET', `/webhooks/events/?webhook=${b.id}`)).body).toEqual([]);
    const listB = await callB('GET', '/webhooks/events/');
    expect(listB.body.map((e: { webhook: string }) => e.webhook)).toEqual([b.id]);
  });
});

describe('the webhook log', () => {
  it('filters events, paginates newest first and refuses bad filters', async () => {
    const h = await hook({ event_types: ['bundle_sent', 'bundle_cancelled'] });
    receiver.on(h.path, (c) => (json(c).event_type === 'bundle_cancelled' ? 500 : 200));
    const first = await sendBundle();
    const second = await sendBundle();
    await call('PUT', `/bundles/${second}/cancel/`);
    await eventually(() => receiver.callsTo(h.path).length >= 3);
    const all = await eventually(async () => {
      const res = await call('GET', `/webhooks/events/?webhook=${h.id}`);
      return res.body.length === 3 && res.body.every((e: { status: number }) => e.status !== 0) && res;
    });
    expect(all.body.map((e: { event_type: string }) => e.event_type)).toEqual([
      'bundle_cancelled',
      'bundle_sent',
      'bundle_sent',
    ]);
    expect(JSON.parse(all.body[2].payload)).toEqual({ bundle_id: first });
    const q = async (query: string) =>
      (await call('GET', `/webhooks/events/?webhook=${h.id}&${query}`)).body.map((e: { pk: string }) => e.pk);
    const [cancelled, sent2, sent1] = all.body.map((e: { pk: string }) => e.pk);
    expect(await q('event_type=bundle_sent')).toEqual([sent2, sent1]);
    expect(await q('event_type__in=bundle_cancelled,bundle_complete')).toEqual([cancelled]);
    expect(await q('success=false')).toEqual([cancelled]);
    expect(await q('success=true')).toEqual([sent2, sent1]);
    expect(await q('status=500')).toEqual([cancelled]);
    expect(await q('status__in=200,201')).toEqual([sent2, sent1]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await q(`date_after=${today}&date_before=${today}`)).toHaveLength(3);
    expect(await q('date_before=2020-01-01')).toEqual([]);
    const paged = await call('GET', `/webhooks/events/?webhook=${h.id}&per_page=2&page=2`);
    expect(paged.headers.get('x-blueink-pagination')).toBe('2,2,2,3');
    expect(paged.body.map((e: { pk: string }) => e.pk)).toEqual([sent1]);
    expect(paged.headers.get('link')).toContain(`webhook=${h.id}`);

    for (const bad of [
      'event_type=packet_declined',
      'status=abc',
      'success=maybe',
      'date_after=22-11-2026',
      'webhook=nope',
    ]) {
      const res = await call('GET', `/webhooks/events/?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(isErrorBody(res.body)).toBe(true);
      expect(res.body.errors[0].field).toBe(bad.split('=')[0]);
    }
    expect((await call('GET', '/webhooks/deliveries/?webhook_event=nope')).status).toBe(400);
    expect((await call('GET', `/webhooks/events/${crypto.randomUUID()}/`)).status).toBe(404);
    expect((await call('GET', `/webhooks/deliveries/${crypto.randomUUID()}/`)).status).toBe(404);
    await call('PATCH', `/webhooks/${h.id}/`, { json: { enabled: false } });
  });

  it('redelivers a logged event now, with the same event id', async () => {
    const h = await hook({ event_types: ['bundle_sent'] });
    await sendBundle();
    const [first] = await eventually(() => receiver.callsTo(h.path).length === 1 && receiver.callsTo(h.path));
    const id = json(first!).event_id;
    await eventually(async () => (await call('GET', `/webhooks/events/${id}/`)).body.success);
    const res = await call('POST', `/webhooks/events/${id}/redeliver/`);
    expect(res.status).toBe(202);
    expect(res.body.pk).toBe(id);
    const calls = await eventually(() => receiver.callsTo(h.path).length === 2 && receiver.callsTo(h.path));
    expect(json(calls[1]!)).toEqual(json(calls[0]!));
    await eventually(async () => (await call('GET', `/webhooks/events/${id}/`)).body.deliveries.length === 2);

    await call('PATCH', `/webhooks/${h.id}/`, { json: { enabled: false } });
    const refused = await call('POST', `/webhooks/events/${id}/redeliver/`);
    expect(refused.status).toBe(409);
    expect(isErrorBody(refused.body)).toBe(true);
  });
});

describe('every event type', () => {
  const ALL = [
    'bundle_sent',
    'bundle_complete',
    'bundle_docs_ready',
    'bundle_error',
    'bundle_cancelled',
    'packet_viewed',
    'packet_complete',
    'packet_declined',
  ];

  /** A signer's session through an embedded URL, as the signing page opens one. */
  async function session(packetId: string) {
    const url = (await call('POST', `/packets/${packetId}/embed_url/`)).body.url as string;
    const res = await fetch(`${runtime.baseUrl}/sign/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: url.split('/').pop() }),
    });
    return ((await res.json()) as { session: string }).session;
  }
  const signer = (s: string, path: string, body: unknown) =>
    fetch(`${runtime.baseUrl}/sign/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-session': s },
      body: JSON.stringify(body),
    });
  const embedded = (overrides: Record<string, unknown> = {}) => ({
    packets: [
      { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
      { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
    ],
    documents: [{ key: 'lease', file_b64: pdf, fields: [] }],
    ...overrides,
  });
  const typesOf = (calls: TReceivedCall[]) => calls.map((c) => json(c).event_type as string);

  it('fires packet_viewed, packet_complete and bundle_complete from signing, once each', async () => {
    const h = await hook({ event_types: ALL });
    const bundleId = await sendBundle(embedded());
    const bundle = (await call('GET', `/bundles/${bundleId}/`)).body;
    const [ann, bob] = bundle.packets.map((p: { id: string }) => p.id) as [string, string];
    const annSession = await session(ann);
    const bobSession = await session(bob);
    expect((await signer(annSession, '/complete', { consent: true })).status).toBe(200);
    expect((await signer(bobSession, '/complete', { consent: true })).status).toBe(200);
    const calls = await eventually(() => receiver.callsTo(h.path).length >= 6 && receiver.callsTo(h.path));
    await new Promise((r) => setTimeout(r, 300));
    expect(typesOf(receiver.callsTo(h.path)).sort()).toEqual(
      [
        'bundle_sent',
        'packet_viewed',
        'packet_viewed',
        'packet_complete',
        'packet_complete',
        'bundle_complete',
      ].sort(),
    );
    const packetEvents = calls
      .filter((c) => json(c).event_type.startsWith('packet_'))
      .map((c) => json(c).payload);
    expect(packetEvents).toEqual(
      expect.arrayContaining([
        { bundle_id: bundleId, packet_id: ann },
        { bundle_id: bundleId, packet_id: bob },
      ]),
    );
    const complete = calls.find((c) => json(c).event_type === 'bundle_complete')!;
    expect(json(complete).payload).toEqual({ bundle_id: bundleId });
    expect(json(complete).event_date).toBe((await call('GET', `/bundles/${bundleId}/`)).body.completed_at);
  });

  it('fires packet_declined and bundle_cancelled when a signer declines', async () => {
    const h = await hook({ event_types: ['packet_declined', 'bundle_cancelled'] });
    const bundleId = await sendBundle(embedded());
    const ann = (await call('GET', `/bundles/${bundleId}/`)).body.packets[0].id as string;
    expect((await signer(await session(ann), '/decline', { reason: 'Wrong address' })).status).toBe(200);
    const calls = await eventually(() => receiver.callsTo(h.path).length === 2 && receiver.callsTo(h.path));
    expect(typesOf(calls).sort()).toEqual(['bundle_cancelled', 'packet_declined']);
    expect(json(calls.find((c) => json(c).event_type === 'packet_declined')!).payload).toEqual({
      bundle_id: bundleId,
      packet_id: ann,
    });
  });

  it('delivers bundle_docs_ready and bundle_error from their audit events', async () => {
    // The document worker (evidence) appends these events when final documents are ready or
    // fail for good; here they are appended through the same domain path it will use.
    const h = await hook({ event_types: ['bundle_docs_ready', 'bundle_error'] });
    const bundleId = await sendBundle();
    const { changeBundle } = await import('#shared/domain/bundles/change-bundle');
    const { event } = await import('#shared/domain/bundles/audit-event');
    const { SYSTEM } = await import('#shared/domain/bundles/actor');
    const { createCountingBundleStore } = await import('#shared/composition/bundle-publishing');
    const bundles = createCountingBundleStore(runtime.config, runtime.db);
    const at = new Date().toISOString();
    await changeBundle({ bundles }, runtime.demo.accountId, bundleId, (b) => ({
      ...b,
      events: [...b.events, event('docsReady', at, SYSTEM), event('failed', at, SYSTEM)],
    }));
    // Only this bundle's calls: an earlier test's bundle may get its final documents meanwhile.
    const ours = () => receiver.callsTo(h.path).filter((c) => json(c).payload.bundle_id === bundleId);
    const calls = await eventually(() => ours().length === 2 && ours());
    expect(typesOf(calls).sort()).toEqual(['bundle_docs_ready', 'bundle_error']);
    for (const c of calls) {
      expect(json(c)).toMatchObject({
        event_date: at,
        account_id: runtime.demo.accountId,
        payload: { bundle_id: bundleId },
      });
    }
  });
});
