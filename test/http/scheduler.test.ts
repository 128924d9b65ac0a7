import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { INDEXES } from '#shared/adapters/dynamodb/table';
import type { TBundle } from '#shared/domain/bundles/bundle';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import { runDueWork } from '#shared/domain/scheduler/run-due-work';
import { withDueAt } from '#shared/domain/scheduler/schedule';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const DAY = 86_400_000;
const MINUTE = 60_000;

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let store: TBundleStore;

beforeAll(async () => {
  // The timer stays out of the way: every run here is one the test asks for, at a time it chooses.
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  store = createBundleStore(runtime.db, runtime.config.tableName);
  await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
    reminders: true,
  });
});
afterAll(() => runtime.stop());

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/bundles/', { json: aBundle(overrides, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; packets: { id: string; name: string }[] };
}

/** A sent bundle with the given PATCH settings, as stored. */
async function sentWith(settings: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const b = await create(overrides);
  const res = await call('PATCH', `/bundles/${b.id}/`, { json: settings });
  expect(res.status, res.text).toBe(200);
  return stored(b.id);
}

async function stored(id: string): Promise<TBundle> {
  return (await store.get(runtime.demo.accountId, id))!;
}

const at = (b: TBundle, ms: number) => new Date(Date.parse(b.sent!) + ms);
const run = (now: Date) => runtime.workers.runScheduler(now);

async function events(
  id: string,
): Promise<{ kind: string; description: string; packet_id: string | null }[]> {
  const res = await call('GET', `/bundles/${id}/events/`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const reminders = async (id: string) => (await events(id)).filter((e) => e.kind === 'rm');

/** The bundle's entries in the by-due index, read from the index itself. */
async function dueEntries(id: string): Promise<string[]> {
  const found: string[] = [];
  for (const partition of bundleKeys.duePartitions()) {
    const out = await runtime.db.send(
      new QueryCommand({
        TableName: runtime.config.tableName,
        IndexName: INDEXES.byDue.name,
        KeyConditionExpression: 'duePk = :p',
        ExpressionAttributeValues: { ':p': partition },
      }),
    );
    for (const item of out.Items ?? []) {
      const sk = item.dueSk as string;
      if (sk.endsWith(`#${id}`)) found.push(sk);
    }
  }
  return found;
}

/** Moves the bundle's send (and its signing requests) `ms` into the past, as if sent earlier. */
async function backdate(id: string, ms: number): Promise<TBundle> {
  const b = await stored(id);
  const shift = (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
  const moved: TBundle = {
    ...b,
    sent: shift(b.sent!),
    packets: b.packets.map((p) => (p.sentAt ? { ...p, sentAt: shift(p.sentAt) } : p)),
    version: b.version + 1,
  };
  await store.save(moved, b);
  return moved;
}

describe('automatic reminders', () => {
  it('go out reminder_offset days after sending, then every reminder_interval days, none after reminder_expires', async () => {
    const b = await sentWith({
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 2,
      reminder_expires: 5,
    });
    const [ann, bob] = b.packets;
    expect(await dueEntries(b.id)).toEqual([`${at(b, DAY).toISOString()}#${runtime.demo.accountId}#${b.id}`]);

    await run(at(b, DAY - MINUTE));
    expect(await reminders(b.id)).toEqual([]);

    const first = at(b, DAY + MINUTE);
    await run(first);
    const rm = await reminders(b.id);
    expect(rm.map((e) => e.packet_id).sort()).toEqual([ann!.id, bob!.id].sort());
    expect(rm.map((e) => e.description).sort()).toEqual([
      'Reminder sent: Ann Lee (automatic)',
      'Reminder sent: Bob Roe (automatic)',
    ]);
    const after = await stored(b.id);
    expect(after.packets.map((p) => p.lastReminderAt)).toEqual([first.toISOString(), first.toISOString()]);
    // The next slot is the interval later: the index moved in the same write.
    expect(await dueEntries(b.id)).toEqual([
      `${at(b, 3 * DAY).toISOString()}#${runtime.demo.accountId}#${b.id}`,
    ]);

    // Between slots nothing is due.
    await run(at(b, 2 * DAY));
    expect(await reminders(b.id)).toHaveLength(2);
    await run(at(b, 3 * DAY + MINUTE));
    expect(await reminders(b.id)).toHaveLength(4);
    // The slot at reminder_expires itself is the last one.
    await run(at(b, 5 * DAY + MINUTE));
    expect(await reminders(b.id)).toHaveLength(6);
    expect(await dueEntries(b.id)).toEqual([]);
    const last = await stored(b.id);
    await run(at(b, 7 * DAY + MINUTE));
    await run(at(b, 30 * DAY));
    expect(await reminders(b.id)).toHaveLength(6);
    expect((await stored(b.id)).version).toBe(last.version);
  });

  it('collapse slots missed while the scheduler was not running into one reminder', async () => {
    const b = await sentWith({
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 1,
      reminder_expires: 10,
    });
    await run(at(b, 4 * DAY + 5 * MINUTE));
    expect(await reminders(b.id)).toHaveLength(2);
    expect(await dueEntries(b.id)).toEqual([
      `${at(b, 5 * DAY).toISOString()}#${runtime.demo.accountId}#${b.id}`,
    ]);
  });

  it('never come within an hour of the last reminder, a manual one included', async () => {
    const b = await sentWith({
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 1,
      reminder_expires: 3,
    });
    // Sent a day ago less 30 minutes: the first slot is half an hour from now.
    const moved = await backdate(b.id, DAY - 30 * MINUTE);
    const [ann, bob] = moved.packets;
    const manual = await call('PUT', `/packets/${ann!.id}/remind/`);
    expect(manual.status, manual.text).toBe(200);
    const manualAt = Date.parse((await stored(b.id)).packets[0]!.lastReminderAt!);

    // At the slot only Bob is reminded: Ann had hers less than an hour ago.
    await run(new Date(manualAt + 40 * MINUTE));
    let rm = await reminders(b.id);
    expect(rm.map((e) => [e.packet_id, e.description])).toEqual([
      [ann!.id, 'Reminder sent: Ann Lee'],
      [bob!.id, 'Reminder sent: Bob Roe (automatic)'],
    ]);
    // Ann's reminder of that slot comes an hour after the manual one.
    await run(new Date(manualAt + 59 * MINUTE));
    expect(await reminders(b.id)).toHaveLength(2);
    await run(new Date(manualAt + 61 * MINUTE));
    rm = await reminders(b.id);
    expect(rm).toHaveLength(3);
    expect(rm[2]).toMatchObject({ packet_id: ann!.id, description: 'Reminder sent: Ann Lee (automatic)' });
  });

  it('count a manual reminder after a slot as that slot’s reminder', async () => {
    const b = await sentWith({
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 1,
      reminder_expires: 3,
    });
    // The first slot passed ten minutes ago and the scheduler has not run yet.
    const moved = await backdate(b.id, DAY + 10 * MINUTE);
    const [ann] = moved.packets;
    expect((await call('PUT', `/packets/${ann!.id}/remind/`)).status).toBe(200);
    await run(new Date());
    const rm = await reminders(b.id);
    expect(rm.filter((e) => e.packet_id === ann!.id)).toHaveLength(1);
    expect(rm).toHaveLength(2);
  });

  it('skip suppressed signers, embedded ones, those whose turn has not come, and those finished', async () => {
    const b = await sentWith(
      { send_reminders: true, reminder_offset: 1, reminder_interval: 1, reminder_expires: 5 },
      {
        in_order: true,
        packets: [
          { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', order: 1, suppress_reminder: true },
          { key: 'cy', name: 'Cy Doe', email: 'cy@example.com', order: 1, suppress_all: true },
          { key: 'dee', name: 'Dee Fox', email: 'dee@example.com', order: 1, deliver_via: 'embed' },
          { key: 'eve', name: 'Eve Ray', email: 'eve@example.com', order: 1 },
          { key: 'fay', name: 'Fay Sun', email: 'fay@example.com', order: 1 },
          { key: 'bob', name: 'Bob Roe', phone: '+1 555 010 3000', deliver_via: 'phone', order: 2 },
        ],
      },
    );
    const [ann, cy, dee, eve, fay, bob] = b.packets;
    expect(bob!.status).toBe('ne');
    // Fay has signed (the signing pages are not this test's business: set it on the item).
    const current = await stored(b.id);
    await store.save(
      {
        ...current,
        packets: current.packets.map((p) => (p.id === fay!.id ? { ...p, status: 'co' } : p)),
        version: current.version + 1,
      },
      current,
    );
    // An embedded signer moved to email was never sent a request: the client reminds them.
    const moved = await call('PATCH', `/packets/${dee!.id}/`, { json: { deliver_via: 'email' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.status).toBe('se');

    await run(at(b, DAY + MINUTE));
    expect((await reminders(b.id)).map((e) => e.packet_id)).toEqual([eve!.id]);
    for (const p of [ann, cy, dee, fay, bob]) {
      expect((await stored(b.id)).packets.find((x) => x.id === p!.id)!.lastReminderAt).toBeUndefined();
    }
  });

  it('stay off without send_reminders, and stop when it is turned off', async () => {
    const off = await sentWith({ reminder_offset: 1, reminder_interval: 1 });
    expect(await dueEntries(off.id)).toEqual([]);
    const on = await sentWith({ send_reminders: true, reminder_offset: 1, reminder_interval: 1 });
    expect(await dueEntries(on.id)).toHaveLength(1);
    expect((await call('PATCH', `/bundles/${on.id}/`, { json: { send_reminders: false } })).status).toBe(200);
    expect(await dueEntries(on.id)).toEqual([]);
    await run(at(on, 2 * DAY));
    expect(await reminders(on.id)).toEqual([]);
    expect(await reminders(off.id)).toEqual([]);
  });

  it('are sent once by two runs at once', async () => {
    const b = await sentWith({
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 1,
      reminder_expires: 5,
    });
    const t = at(b, DAY + MINUTE).getTime();
    await Promise.all([run(new Date(t)), run(new Date(t)), run(new Date(t + 10 * MINUTE))]);
    const rm = await reminders(b.id);
    expect(rm).toHaveLength(2);
    expect(new Set(rm.map((e) => e.packet_id)).size).toBe(2);
    const version = (await stored(b.id)).version;
    await Promise.all([run(new Date(t + 20 * MINUTE)), run(new Date(t + 30 * MINUTE))]);
    expect(await reminders(b.id)).toHaveLength(2);
    expect((await stored(b.id)).version).toBe(version);
  });

  it('survive a run that dies half-way: the next run does the rest, and nothing twice', async () => {
    const one = await sentWith({ send_reminders: true, reminder_offset: 1, reminder_expires: 5 });
    const two = await sentWith({ send_reminders: true, reminder_offset: 1, reminder_expires: 5 });
    const now = at(two, DAY + MINUTE);
    // The first write lands and then the run dies; the second never lands.
    let saves = 0;
    const crashing: TBundleStore = {
      ...store,
      async save(bundle, previous) {
        saves += 1;
        if (bundle.id === two.id) throw new Error('crashed before writing');
        await store.save(bundle, previous);
        if (bundle.id === one.id) throw new Error('crashed after writing');
      },
    };
    const broken = await runDueWork({ bundles: crashing, eraser: { eraseAll: async () => 0 } }, now);
    expect(saves).toBeGreaterThanOrEqual(2);
    expect(broken.failed.map((f) => f.id).sort()).toEqual(expect.arrayContaining([one.id, two.id].sort()));
    expect(await reminders(one.id)).toHaveLength(2);
    expect(await reminders(two.id)).toEqual([]);

    await run(now);
    expect(await reminders(one.id)).toHaveLength(2);
    expect(await reminders(two.id)).toHaveLength(2);
  });
});

describe('expiry', () => {
  it('makes the bundle and its open packets ex with an event, and takes it out of the due index', async () => {
    // A sent bundle keeps its time of day; it had none, so it expires at the end of that day (UTC).
    const b = await sentWith({
      expires: new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10),
      send_reminders: true,
      reminder_offset: 1,
      reminder_interval: 1,
    });
    const expires = b.expires!;
    expect(expires).toMatch(/T23:59:59\.000Z$/);
    // The first reminder comes before the expiry, so that is what the index shows first.
    expect(await dueEntries(b.id)).toEqual([`${at(b, DAY).toISOString()}#${runtime.demo.accountId}#${b.id}`]);
    const exp = Date.parse(expires);

    await run(new Date(exp - MINUTE));
    const before = await stored(b.id);
    expect(before.status).toBe('se');
    expect(await dueEntries(b.id)).toEqual([`${expires}#${runtime.demo.accountId}#${b.id}`]);

    await run(new Date(exp + MINUTE));
    const res = await call('GET', `/bundles/${b.id}/`);
    expect(res.body.status).toBe('ex');
    expect(res.body.packets.map((p: { status: string }) => p.status)).toEqual(['ex', 'ex']);
    const last = (await events(b.id)).at(-1);
    expect(last).toMatchObject({ kind: 'ex', description: 'Bundle expired', packet_id: null });
    expect(await dueEntries(b.id)).toEqual([]);
    // Nothing more happens to an expired bundle, by the scheduler or by hand.
    const version = (await stored(b.id)).version;
    await run(new Date(exp + DAY));
    expect((await stored(b.id)).version).toBe(version);
    expect((await call('PUT', `/packets/${b.packets[0]!.id}/remind/`)).status).toBe(409);
    expect((await events(b.id)).filter((e) => e.kind === 'ex')).toHaveLength(1);
  });

  it('wins over a reminder due at the same time, and leaves finished packets as they are', async () => {
    const b = await sentWith({
      expires: new Date(Date.now() + DAY).toISOString(),
      send_reminders: true,
      reminder_offset: 1,
    });
    const expires = b.expires!;
    const current = await stored(b.id);
    await store.save(
      {
        ...current,
        packets: current.packets.map((p, i) => (i === 0 ? { ...p, status: 'co' } : p)),
        version: current.version + 1,
      },
      current,
    );
    await run(new Date(Date.parse(expires) + 2 * DAY));
    const after = await stored(b.id);
    expect(after.status).toBe('ex');
    expect(after.packets.map((p) => p.status)).toEqual(['co', 'ex']);
    expect(await reminders(b.id)).toEqual([]);
  });

  it('expires once when two runs race', async () => {
    const b = await sentWith({ expires: new Date(Date.now() + DAY).toISOString() });
    const t = Date.parse(b.expires!) + MINUTE;
    await Promise.all([run(new Date(t)), run(new Date(t)), run(new Date(t + MINUTE))]);
    expect((await stored(b.id)).status).toBe('ex');
    expect((await events(b.id)).filter((e) => e.kind === 'ex')).toHaveLength(1);
  });
});

describe('the by-due index', () => {
  it('holds only sent bundles with something due', async () => {
    const expires = new Date(Date.now() + DAY).toISOString();
    const settings = { expires, send_reminders: true, reminder_offset: 1 };
    // A draft has nothing due, whatever its settings; sending it puts it in.
    const draft = await create({ status: 'dr' });
    expect((await call('PATCH', `/bundles/${draft.id}/`, { json: settings })).status).toBe(200);
    expect(await dueEntries(draft.id)).toEqual([]);
    expect((await call('POST', `/bundles/${draft.id}/send/`)).status).toBe(200);
    expect(await dueEntries(draft.id)).toHaveLength(1);

    // A sent bundle with neither expiry nor reminders has nothing due.
    const plain = await create();
    expect(await dueEntries(plain.id)).toEqual([]);

    // Cancelled and completed bundles leave the index in the write that finishes them.
    const cancelled = await sentWith(settings);
    expect(await dueEntries(cancelled.id)).toHaveLength(1);
    expect((await call('PUT', `/bundles/${cancelled.id}/cancel/`)).status).toBe(200);
    expect(await dueEntries(cancelled.id)).toEqual([]);
    const done = await sentWith(settings);
    const current = await stored(done.id);
    // Written as the domain writes every change (withDueAt notes what is due next).
    await store.save(
      withDueAt({
        ...current,
        status: 'co',
        completedAt: new Date().toISOString(),
        packets: current.packets.map((p) => ({ ...p, status: 'co' })),
        version: current.version + 1,
      }),
      current,
    );
    expect(await dueEntries(done.id)).toEqual([]);

    // The keys never reach the bundle as the API or the store shows it.
    const res = await call('GET', `/bundles/${draft.id}/`);
    expect(res.text).not.toMatch(/duePk|dueSk/);
    expect(Object.keys(await stored(draft.id))).not.toEqual(expect.arrayContaining(['duePk']));
  });
});
