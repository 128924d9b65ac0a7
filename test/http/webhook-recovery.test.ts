// The delivery guarantees under faults: a dispatcher stopped with a thousand events queued, a
// change whose outbox the relay could not publish, a receiver that stays down.
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_STAGE } from '#infra/local/layout';
import type { TRuntime } from '#infra/local/runtime';
import { deadLetterName, QUEUES } from '#infra/queues';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { publishDeps } from '#shared/composition/bundle-publishing';
import { cancelBundle } from '#shared/domain/bundles/cancel-bundle';
import { SWEEP_AFTER_MS, sweepOutboxes } from '#shared/domain/outbox/publish-events';
import { MAX_ATTEMPTS } from '#shared/domain/webhooks/deliver-event';
import { WEBHOOK_DISABLE_AFTER } from '#shared/domain/webhooks/webhook';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let receiver: TReceiver;
let pdf: string;

beforeAll(async () => {
  receiver = await startReceiver();
  pdf = await aPdfB64();
});
afterAll(() => receiver.stop());

async function setUp(runtime: TRuntime) {
  const call = apiClient(runtime);
  let n = 0;
  return {
    call,
    async hook(path: string, types = ['bundle_sent']) {
      const res = await call('POST', '/webhooks/', { json: { url: receiver.url(path), event_types: types } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    },
    async send() {
      const res = await call('POST', '/bundles/', { json: aBundle({ label: `Lease ${++n}` }, pdf) });
      expect(res.status).toBe(201);
      return res.body.id as string;
    },
  };
}

const eventIdOf = (body: string) => JSON.parse(body).event_id as string;

describe('a stopped dispatcher', () => {
  let runtime: TRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ webhookRetryScale: 1 / 240 });
  });
  afterAll(() => runtime.stop());

  it('delivers every one of 1,000 queued events once started again, duplicates told apart by event id', async () => {
    const { call, hook, send } = await setUp(runtime);
    const path = '/fault';
    // Ten webhooks and a hundred bundles sent: 1,000 events. Every seventh call fails once, so
    // retries are part of the run too.
    const hooks = await Promise.all(Array.from({ length: 10 }, () => hook(path)));
    const failedOnce = new Set<string>();
    const delivered = new Set<string>();
    receiver.on(path, (c, nth) => {
      const id = eventIdOf(c.body);
      if (nth % 7 === 0 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return 500;
      }
      delivered.add(id);
      return 200;
    });

    await runtime.workers.webhooks.stop();
    for (let i = 0; i < 100; i += 10) await Promise.all(Array.from({ length: 10 }, () => send()));
    // Logged by the outbox relay, which publishes each change from the table's stream.
    await runtime.workers.outboxRelay.idle();
    const logged = await call('GET', '/webhooks/events/?per_page=1');
    expect(logged.headers.get('x-blueink-pagination')).toBe('1,1000,1,1000');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.callsTo(path)).toHaveLength(0);

    // Started, stopped again part-way (batches in flight finish), then started for good.
    runtime.workers.webhooks.start();
    await eventually(() => receiver.callsTo(path).length >= 200, 60_000, '200 calls');
    await runtime.workers.webhooks.stop();
    runtime.workers.webhooks.start();

    const expected = new Set<string>();
    for (let page = 1; page <= 10; page++) {
      const res = await call('GET', `/webhooks/events/?per_page=100&page=${page}`);
      for (const e of res.body as { pk: string; webhook: string }[]) {
        expect(hooks).toContain(e.webhook);
        expected.add(e.pk);
      }
    }
    expect(expected.size).toBe(1000);
    await eventually(() => delivered.size === 1000, 120_000, 'all 1,000 events');
    expect([...delivered].every((id) => expected.has(id))).toBe(true);
    expect(failedOnce.size).toBeGreaterThan(0);
    // Every event that was failed once came again: its id appears more than once.
    const counts = new Map<string, number>();
    for (const c of receiver.callsTo(path))
      counts.set(eventIdOf(c.body), (counts.get(eventIdOf(c.body)) ?? 0) + 1);
    for (const id of failedOnce) expect(counts.get(id)).toBeGreaterThanOrEqual(2);
    await eventually(
      async () =>
        (await call('GET', '/webhooks/events/?success=false&per_page=1')).headers.get(
          'x-blueink-pagination',
        ) === '1,1,1,0',
      60_000,
      'every event to be marked delivered',
    );
  }, 240_000);
});

describe('a change the outbox relay could not publish', () => {
  let runtime: TRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
    // As if every attempt of the relay at this runtime's changes failed: their stream records
    // are given up, and their outboxes stay for the sweeper.
    await runtime.workers.outboxRelay.stop();
  });
  afterAll(() => runtime.stop());

  it('leaves the event in the outbox, and the sweeper publishes it exactly once', async () => {
    const { hook, send } = await setUp(runtime);
    const path = '/crashed';
    await hook(path, ['bundle_cancelled']);
    const bundleId = await send();
    // The change as a request writes it: its outbox is the relay's to publish, and the relay
    // is down.
    const bare = {
      bundles: createBundleStore(runtime.db, runtime.config.tableName),
      clock: { now: () => new Date() },
    };
    const by = { type: 'user', userId: runtime.demo.userId } as const;
    await cancelBundle(bare, { accountId: runtime.demo.accountId, by }, bundleId);
    const stored = await bare.bundles.get(runtime.demo.accountId, bundleId);
    // Its creation's entries too: the relay published nothing of this runtime's.
    expect(stored!.outbox).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'bundle_cancelled' })]),
    );

    const deps = publishDeps(runtime.config, runtime.db);
    // Too young: its own publisher may still be at work.
    expect(await sweepOutboxes(deps)).toBe(0);
    const later = { ...deps, clock: { now: () => new Date(Date.now() + SWEEP_AFTER_MS + 1000) } };
    expect(await sweepOutboxes(later)).toBe(1);
    expect(await sweepOutboxes(later)).toBe(0);
    const [got] = await eventually(() => receiver.callsTo(path).length === 1 && receiver.callsTo(path));
    expect(JSON.parse(got!.body)).toMatchObject({
      event_type: 'bundle_cancelled',
      payload: { bundle_id: bundleId },
    });
    expect((await bare.bundles.get(runtime.demo.accountId, bundleId))!.outbox).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.callsTo(path)).toHaveLength(1);
  });

  it('is swept by the sweeper function itself, under its own role', async () => {
    const { hook, send } = await setUp(runtime);
    const path = '/crashed-swept';
    await hook(path, ['bundle_cancelled']);
    const bundleId = await send();
    const bundles = createBundleStore(runtime.db, runtime.config.tableName);
    const by = { type: 'user', userId: runtime.demo.userId } as const;
    await cancelBundle(
      { bundles, clock: { now: () => new Date() } },
      { accountId: runtime.demo.accountId, by },
      bundleId,
    );
    // Its outbox dated past the sweeper's wait, as a crashed request's is by its next run.
    const key = bundleKeys.item(runtime.demo.accountId, bundleId);
    const item = (await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: key })))
      .Item!;
    const old = new Date(Date.now() - SWEEP_AFTER_MS - 60_000).toISOString();
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: key,
        UpdateExpression: 'SET outboxSk = :sk',
        ExpressionAttributeValues: { ':sk': String(item.outboxSk).replace(/^[^#]+/, old) },
      }),
    );
    // The local runtime runs it as the outbox-sweeper function: every call it makes is checked
    // against that function's role in the template, as on AWS (its timer's run may come first:
    // the same function, the same role).
    await runtime.workers.sweepOutboxes();
    const [got] = await eventually(() => receiver.callsTo(path).length === 1 && receiver.callsTo(path));
    expect(JSON.parse(got!.body)).toMatchObject({
      event_type: 'bundle_cancelled',
      payload: { bundle_id: bundleId },
    });
    expect((await bundles.get(runtime.demo.accountId, bundleId))!.outbox).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.callsTo(path)).toHaveLength(1);
  });
});

describe('a receiver that stays down', () => {
  let runtime: TRuntime;
  beforeAll(async () => {
    // Every retry at once: the schedule's length, not its delays, is what is tested here.
    runtime = await startTestRuntime({ webhookRetryScale: 1e-9 });
  });
  afterAll(() => runtime.stop());

  it(`gets ${MAX_ATTEMPTS} attempts an event, then the job goes to the dead-letter queue; ${WEBHOOK_DISABLE_AFTER} such events disable the webhook`, async () => {
    const { call, hook, send } = await setUp(runtime);
    const path = '/down';
    receiver.on(path, () => 502);
    const id = await hook(path);
    for (let i = 0; i < WEBHOOK_DISABLE_AFTER; i++) await send();
    const webhook = await eventually(
      async () => {
        const w = await call('GET', `/webhooks/${id}/`);
        return !w.body.enabled && w.body;
      },
      60_000,
      'the webhook to be disabled',
    );
    expect(webhook.enabled).toBe(false);
    expect(receiver.callsTo(path)).toHaveLength(WEBHOOK_DISABLE_AFTER * MAX_ATTEMPTS);
    const events = await call('GET', `/webhooks/events/?webhook=${id}`);
    expect(events.body).toHaveLength(WEBHOOK_DISABLE_AFTER);
    for (const e of events.body) {
      expect(e.success).toBe(false);
      expect(e.status).toBe(502);
      expect(e.deliveries).toHaveLength(MAX_ATTEMPTS);
    }

    const sqs = new SQSClient({
      region: runtime.config.region,
      endpoint: runtime.config.endpoints.sqs,
      credentials: LOCAL_CREDENTIALS,
    });
    const dlq = await sqs.send(
      new GetQueueUrlCommand({ QueueName: deadLetterName(LOCAL_STAGE, QUEUES.webhookDeliveries.name) }),
    );
    await eventually(
      async () => {
        const attrs = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: dlq.QueueUrl,
            AttributeNames: ['ApproximateNumberOfMessages'],
          }),
        );
        return Number(attrs.Attributes?.ApproximateNumberOfMessages) === WEBHOOK_DISABLE_AFTER;
      },
      30_000,
      'the dead-letter queue to hold every job',
    );

    // Disabled by the service: the next event is logged, not delivered.
    const bundleId = await send();
    const next = await eventually(async () => {
      const list = await call('GET', `/webhooks/events/?webhook=${id}`);
      return list.body.length === WEBHOOK_DISABLE_AFTER + 1 && list.body[0];
    });
    expect(JSON.parse(next.payload)).toEqual({ bundle_id: bundleId });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.callsTo(path)).toHaveLength(WEBHOOK_DISABLE_AFTER * MAX_ATTEMPTS);

    // The receiver is fixed and the webhook enabled again: the missed event can be sent.
    receiver.on(path, () => 200);
    expect((await call('PATCH', `/webhooks/${id}/`, { json: { enabled: true } })).status).toBe(200);
    expect((await call('POST', `/webhooks/events/${next.pk}/redeliver/`)).status).toBe(202);
    await eventually(async () => (await call('GET', `/webhooks/events/${next.pk}/`)).body.success === true);
    const last = receiver.callsTo(path).at(-1)!;
    expect(eventIdOf(last.body)).toBe(next.pk);
  }, 120_000);
});
