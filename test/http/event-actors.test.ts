// Who acted, over HTTP against the local runtime: a sender's reminder (through the API, with
// their key) and the scheduler's automatic one are stored with different actors, and the audit
// trail the evidence prints tells them apart from those actors, even when the descriptions are
// worded otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { verifyChain } from '#shared/domain/bundles/audit-chain';
import type { TBundle, TBundleEvent } from '#shared/domain/bundles/bundle';
import { auditEntries } from '#shared/domain/evidence/audit-trail';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const DAY = 86_400_000;
const MINUTE = 60_000;

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let store: TBundleStore;

beforeAll(async () => {
  // The timer stays out of the way: the scheduler runs when the test asks, at the time it gives.
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  store = createBundleStore(runtime.db, runtime.config.tableName);
  await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
    reminders: true,
  });
});
afterAll(() => runtime.stop());

const stored = async (id: string) => (await store.get(runtime.demo.accountId, id))!;

/** A bundle sent now with daily reminders, as stored. */
async function aBundleWithReminders(): Promise<TBundle> {
  const res = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
  expect(res.status, res.text).toBe(201);
  const settings = { send_reminders: true, reminder_offset: 1, reminder_interval: 1, reminder_expires: 3 };
  expect((await call('PATCH', `/bundles/${res.body.id}/`, { json: settings })).status).toBe(200);
  return stored(res.body.id);
}

describe('who acted on a reminder', () => {
  it('is the sender’s key for one asked through the API, the scheduler for an automatic one', async () => {
    const b = await aBundleWithReminders();
    const [ann, bob] = b.packets;
    const manual = await call('PUT', `/packets/${ann!.id}/remind/`);
    expect(manual.status, manual.text).toBe(200);
    // A day on, the scheduler reminds both: Ann's reminder asked for today is a day old then.
    await runtime.workers.runScheduler(new Date(Date.parse(b.sent!) + DAY + MINUTE));

    const after = await stored(b.id);
    const events = await store.events(after);
    expect(verifyChain(events, after.chainHead).intact).toBe(true);
    // The key that created the bundle is the one that asked for Ann's reminder.
    const created = events.find((e) => e.kind === 'cr')!;
    expect(created.actor).toEqual({ type: 'api_key', keyId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const reminders = events.filter((e) => e.kind === 'rm');
    expect(reminders.map((e) => [e.packetId, e.actor])).toEqual([
      [ann!.id, created.actor],
      [ann!.id, { type: 'scheduler' }],
      [bob!.id, { type: 'scheduler' }],
    ]);

    // The evidence's "who" comes from the actors, whatever the descriptions say: here each
    // reminder is given the words of the other kind.
    const automatic = ' (automatic)';
    const reworded: TBundleEvent[] = events.map((e) => {
      if (e.kind !== 'rm') return e;
      const auto = e.description.endsWith(automatic);
      return {
        ...e,
        description: auto ? e.description.slice(0, -automatic.length) : `${e.description}${automatic}`,
      };
    });
    expect(reworded.filter((e) => e.kind === 'rm').map((e) => e.description)).toEqual([
      'Reminder sent: Ann Lee (automatic)',
      'Reminder sent: Ann Lee',
      'Reminder sent: Bob Roe',
    ]);
    for (const trail of [events, reworded]) {
      const who = auditEntries(trail, after.packets, [])
        .filter((_, i) => trail[i]!.kind === 'rm')
        .map((e) => e.actor);
      expect(who).toEqual(['sender', 'service', 'service']);
    }
  });
});
