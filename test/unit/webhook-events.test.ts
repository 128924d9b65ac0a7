import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TBundle, TBundleEvent } from '#shared/domain/bundles/bundle';
import { withOutbox } from '#shared/domain/outbox/outbox';
import {
  deliverEvent,
  MAX_ATTEMPTS,
  RETRY_DELAYS_SECONDS,
  type TDeliverDeps,
} from '#shared/domain/webhooks/deliver-event';
import type { TWebhook } from '#shared/domain/webhooks/webhook';
import { blueinkSignature, buildWebhookCall, callBody } from '#shared/domain/webhooks/webhook-call';
import { type TWebhookEvent, webhookEventId } from '#shared/domain/webhooks/webhook-event';
import { metricsRecorder } from '../helpers/metrics';

const ev = (kind: string, packetId?: string): TBundleEvent => ({
  kind,
  description: kind,
  timestamp: `2026-11-22T08:00:0${kind.length}.000Z`,
  ...(packetId ? { packetId } : {}),
});

const bundleWith = (events: TBundleEvent[], archivedEvents?: number) =>
  ({ id: 'B1', events, ...(archivedEvents ? { archivedEvents } : {}) }) as unknown as TBundle;

describe('the outbox', () => {
  it('notes the webhook events among the new audit events, numbered by their place in the whole history', () => {
    const before = bundleWith([ev('cr'), ev('se')], 120);
    const after = bundleWith([...before.events, ev('pu', 'P1'), ev('pv', 'P1'), ev('ca')], 120);
    expect(withOutbox(before, after).outbox).toEqual([
      { seq: 123, type: 'packet_viewed', date: after.events[3]!.timestamp, packetId: 'P1' },
      { seq: 124, type: 'bundle_cancelled', date: after.events[4]!.timestamp },
    ]);
  });

  it('counts from the start for a new bundle and keeps entries not yet published', () => {
    const created = withOutbox(undefined, bundleWith([ev('cr'), ev('se')]));
    expect(created.outbox).toEqual([{ seq: 1, type: 'bundle_sent', date: created.events[1]!.timestamp }]);
    const next = withOutbox(created, { ...created, events: [...created.events, ev('ca')] });
    expect(next.outbox!.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('leaves a change without webhook events untouched', () => {
    const before = bundleWith([ev('cr')]);
    const after = bundleWith([ev('cr'), ev('tg'), ev('up')]);
    expect(withOutbox(before, after)).toBe(after);
  });

  it('queues the final documents with the bundle complete, and interim files with their request', () => {
    const before = bundleWith([ev('cr'), ev('se')]);
    const after = bundleWith([...before.events, ev('if'), ev('pc', 'P1'), ev('co')]);
    expect(withOutbox(before, after).outbox).toEqual([
      { seq: 2, document: 'interim', date: after.events[2]!.timestamp },
      { seq: 3, type: 'packet_complete', date: after.events[3]!.timestamp, packetId: 'P1' },
      { seq: 4, type: 'bundle_complete', document: 'final', date: after.events[4]!.timestamp },
    ]);
  });
});

describe('event ids', () => {
  it('are UUIDs derived from bundle, history place and webhook: the same inputs, the same id', () => {
    const id = webhookEventId('B1', 4, 'W1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookEventId('B1', 4, 'W1')).toBe(id);
    expect(
      new Set([
        id,
        webhookEventId('B1', 5, 'W1'),
        webhookEventId('B1', 4, 'W2'),
        webhookEventId('B2', 4, 'W1'),
      ]).size,
    ).toBe(4);
  });
});

const anEvent: TWebhookEvent = {
  id: 'E1',
  accountId: 'A1',
  webhookId: 'W1',
  type: 'packet_complete',
  created: '2026-11-22T08:00:01.000Z',
  eventDate: '2026-11-22T08:00:00.000Z',
  bundleId: 'B1',
  packetId: 'P1',
  payload: JSON.stringify({ bundle_id: 'B1', packet_id: 'P1' }),
  status: 0,
  success: false,
  deliveries: [],
  queued: true,
};
const aHook = (over: Partial<TWebhook> = {}): TWebhook => ({
  id: 'W1',
  accountId: 'A1',
  url: 'https://hooks.example.com/x',
  enabled: true,
  json: true,
  eventTypes: ['packet_complete'],
  extraHeaders: [],
  created: '',
  updated: '',
  version: 1,
  ...over,
});

describe('the call', () => {
  it('has the body of docs/api-decisions.md, JSON or form-encoded', () => {
    expect(JSON.parse(callBody(anEvent, true).body)).toEqual({
      event_id: 'E1',
      event_type: 'packet_complete',
      event_date: '2026-11-22T08:00:00.000Z',
      account_id: 'A1',
      payload: { bundle_id: 'B1', packet_id: 'P1' },
    });
    const form = new URLSearchParams(callBody(anEvent, false).body);
    expect(Object.fromEntries(form)).toEqual({
      event_id: 'E1',
      event_type: 'packet_complete',
      event_date: '2026-11-22T08:00:00.000Z',
      account_id: 'A1',
      payload: '{"bundle_id":"B1","packet_id":"P1"}',
    });
  });

  it('signs `v0:{timestamp}:{body}` with each secret, extra headers first in their order', () => {
    const hook = aHook({
      extraHeaders: [
        { id: 'h2', name: 'B', value: '2', order: 5 },
        { id: 'h1', name: 'A', value: '1', order: -1 },
      ],
    });
    const call = buildWebhookCall(anEvent, hook, ['new', 'old'], 1_800_000_000);
    expect(call.headers.map(([n]) => n)).toEqual([
      'A',
      'B',
      'Content-Type',
      'X-BlueInk-Request-Timestamp',
      'X-BlueInk-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const header = Object.fromEntries(call.headers);
    const hex = (key: string) => createHmac('sha256', key).update(`v0:1800000000:${call.body}`).digest('hex');
    expect(header['X-BlueInk-Signature']).toBe(`${hex('new')}, ${hex('old')}`);
    expect(blueinkSignature('new', 1_800_000_000, call.body)).toBe(hex('new'));
    const b64 = (key: string) =>
      createHmac('sha256', key).update(`E1.1800000000.${call.body}`).digest('base64');
    expect(header['webhook-signature']).toBe(`v1,${b64('new')} v1,${b64('old')}`);
  });
});

describe('the retry schedule', () => {
  function deps(ok: boolean, scale = 1) {
    const saved: TWebhook[] = [];
    const d = {
      webhookEvents: {
        get: async () => anEvent,
        recordDelivery: async () => undefined,
      },
      webhooks: {
        get: async () => saved.at(-1) ?? aHook(),
        save: async (w: TWebhook) => {
          saved.push(w);
        },
      },
      webhookSecrets: {
        get: async () => ({ accountId: 'A1', current: { sealed: 's', created: '' }, version: 1 }),
      },
      cipher: { decrypt: async () => 'secret' },
      caller: { post: async () => ({ status: ok ? 200 : 500, ok, message: ok ? '' : 'HTTP 500' }) },
      ids: { uuid: () => 'D1', slug: () => 'x' },
      clock: { now: () => new Date('2026-11-22T09:00:00Z') },
      retryScale: scale,
    } as unknown as TDeliverDeps;
    return { d, saved };
  }

  it('waits about 4, 12, 36, 108 and 324 minutes, then gives up and counts the failure', async () => {
    expect(RETRY_DELAYS_SECONDS.map((s) => s / 60)).toEqual([4, 12, 36, 108, 324]);
    const { d, saved } = deps(false);
    const outcomes = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      outcomes.push(await deliverEvent(d, { accountId: 'A1', eventId: 'E1' }, attempt));
    }
    expect(outcomes).toEqual([
      ...RETRY_DELAYS_SECONDS.map((delaySeconds) => ({ kind: 'retry', delaySeconds })),
      { kind: 'gave-up' },
    ]);
    expect(saved.map((w) => w.failedInARow)).toEqual([1]);
  });

  it('counts each call of the receiver by outcome, with how long it took to answer', async () => {
    const { seen, metrics } = metricsRecorder();
    await deliverEvent({ ...deps(false).d, metrics }, { accountId: 'A1', eventId: 'E1' }, 1);
    await deliverEvent({ ...deps(true).d, metrics }, { accountId: 'A1', eventId: 'E1' }, 1);
    expect(seen).toEqual([
      { name: 'WebhookDeliveries', by: { outcome: 'failed' }, value: 1 },
      { name: 'WebhookLatency', ms: 0 },
      { name: 'WebhookDeliveries', by: { outcome: 'delivered' }, value: 1 },
      { name: 'WebhookLatency', ms: 0 },
    ]);
  });

  it('scales the delays for demos, and a success clears the failure count', async () => {
    const { d } = deps(false, 1 / 240);
    expect(await deliverEvent(d, { accountId: 'A1', eventId: 'E1' }, 2)).toEqual({
      kind: 'retry',
      delaySeconds: 3,
    });
    const ok = deps(true);
    ok.saved.push(aHook({ failedInARow: 3 }));
    expect(await deliverEvent(ok.d, { accountId: 'A1', eventId: 'E1' }, 1)).toEqual({ kind: 'done' });
    expect(ok.saved.at(-1)!.failedInARow).toBe(0);
  });
});
