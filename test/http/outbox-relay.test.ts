// Publishing a change's outbox from the table's stream: the request writes the change with its
// outbox and answers; the outbox relay, fed the bundle item as written, logs its webhook events,
// queues its jobs and empties the outbox. A webhook created while bundles change gets every
// change asked after its create answered. All through real HTTP on the local runtime, counting
// the DynamoDB requests each function sent.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { webhookKeys } from '#shared/adapters/dynamodb/entities/webhook';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { dbRecorder, onItem, type TRecordedCommand } from '../helpers/db-recorder';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';

let runtime: TRuntime;
let receiver: TReceiver;
let recorder: ReturnType<typeof dbRecorder>;
let pdf: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  recorder = dbRecorder(runtime);
  receiver = await startReceiver();
  pdf = await aPdfB64();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

/** A new account and its API client. */
async function anAccount() {
  const tag = randomUUID().slice(0, 8);
  const { accountId, apiKey } = await runtime.seedAccount(`Relay ${tag}`, `owner-${tag}@relay.example`);
  return { accountId, call: apiClient(runtime, apiKey) };
}
type TAccountCall = Awaited<ReturnType<typeof anAccount>>;

/** Queries of the account's webhooks among `commands`. */
const webhookReads = (commands: TRecordedCommand[], accountId: string) =>
  commands.filter(
    (c) =>
      c.command === 'Query' && Object.values(c.values ?? {}).includes(webhookKeys.listPartition(accountId)),
  );

async function sendBundle({ call }: TAccountCall): Promise<string> {
  const res = await call('POST', '/bundles/', { json: aBundle({}, pdf) });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function aWebhook({ call }: TAccountCall, path = `/hook-${randomUUID()}`): Promise<TApiAnswer> {
  return call('POST', '/webhooks/', { json: { url: receiver.url(path), event_types: ['bundle_sent'] } });
}

/** The bundles whose events the account logged for the webhook. */
async function loggedBundles({ call }: TAccountCall, webhookId: string): Promise<string[]> {
  const res = await call('GET', `/webhooks/events/?webhook=${webhookId}&per_page=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { payload: string }[]).map((e) => JSON.parse(e.payload).bundle_id as string);
}

describe('a change', () => {
  it('is published by the relay from the stream: the request reads no webhooks and clears nothing', async () => {
    const a = await anAccount();
    const path = `/sent-${randomUUID()}`;
    const hook = await aWebhook(a, path);
    expect(hook.status, hook.text).toBe(201);
    let bundleId = '';
    const commands = await recorder.during(async () => {
      bundleId = await sendBundle(a);
      await runtime.workers.outboxRelay.idle();
    });
    const by = (fn: string) => commands.filter((c) => c.fn === fn);
    const bundleItem = bundleKeys.item(a.accountId, bundleId);
    const outboxCleared = (fn: string) =>
      onItem(by(fn), bundleItem).filter((c) => c.command === 'UpdateItem');
    // The create wrote the bundle with its outbox, and no more of publishing.
    expect(webhookReads(by('bundles'), a.accountId)).toEqual([]);
    expect(outboxCleared('bundles')).toEqual([]);
    // The relay read the webhooks, logged the event and emptied the outbox.
    expect(webhookReads(by('outbox-relay'), a.accountId)).toHaveLength(1);
    expect(outboxCleared('outbox-relay')).toHaveLength(1);
    const [call] = await eventually(() => receiver.callsTo(path).length === 1 && receiver.callsTo(path));
    expect(JSON.parse(call!.body)).toMatchObject({
      event_type: 'bundle_sent',
      payload: { bundle_id: bundleId },
    });
    const stored = await createBundleStore(runtime.db, runtime.config.tableName).get(a.accountId, bundleId);
    expect(stored?.outbox).toBeUndefined();
  });
});

describe('the first webhook created while bundles change', () => {
  it('logs every change asked after the create answered, as they meet at random', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await anAccount();
      let answered: TApiAnswer | undefined;
      const creating = aWebhook(a).then((res) => {
        answered = res;
        return res;
      });
      const askedAfter: string[] = [];
      // Bundles sent one after another while the create runs, and two once it has answered.
      let after = 0;
      while (after < 2) {
        const answeredBefore = answered !== undefined;
        const id = await sendBundle(a);
        if (answeredBefore) {
          askedAfter.push(id);
          after++;
        }
      }
      const created = await creating;
      expect(created.status, created.text).toBe(201);
      // The relay publishes each change once it is written: its webhooks are read then.
      await runtime.workers.outboxRelay.idle();
      const logged = await loggedBundles(a, created.body.id);
      expect(askedAfter.filter((id) => !logged.includes(id))).toEqual([]);
    }
  });
});
