// A runtime killed (kill -9) in the middle of a load of bundle creates loses no webhook event it
// acknowledged: a create answered 201 has written its event into the bundle's outbox, which the
// outbox relay publishes from the table's stream (on a start, from the outboxes still pending,
// as a stream kept across the kill would give them), and a queued event survives the kill
// because the local SQS answers a send only once the message is on disk.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { startRuntimeProcess, type TRuntimeProcess } from '../helpers/runtime-process';

// Each round: creates from a few loops at once, the runtime killed the moment the KILL_AFTER-th
// is answered (its event queued a few milliseconds earlier), with other creates still in flight.
const ROUNDS = 3;
const LOOPS = 4;
const KILL_AFTER = 12;

let receiver: TReceiver;
let pdf: string;
let dir: string;
let child: TRuntimeProcess | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  pdf = await aPdfB64();
  dir = await mkdtemp(join(tmpdir(), 'esign-crash-'));
});
afterAll(async () => {
  await child?.kill();
  await receiver.stop();
  await rm(dir, { recursive: true, force: true });
});

async function call(runtime: TRuntimeProcess, method: string, path: string, json: unknown) {
  const res = await fetch(`${runtime.apiUrl}${path}`, {
    method,
    headers: { authorization: `Token ${runtime.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Creates bundles until the KILL_AFTER-th 201, then kills the runtime; answers the ids answered 201. */
async function loadThenKill(runtime: TRuntimeProcess, round: number): Promise<string[]> {
  const acknowledged: string[] = [];
  let killed = false;
  const loop = async (n: number) => {
    for (let i = 0; !killed; i++) {
      let answer: Awaited<ReturnType<typeof call>>;
      try {
        answer = await call(runtime, 'POST', 'bundles/', aBundle({ label: `Lease ${round}.${n}.${i}` }, pdf));
      } catch (err) {
        if (killed) return; // in flight when the runtime died: never acknowledged
        throw err;
      }
      if (answer.status !== 201)
        throw new Error(`create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      acknowledged.push(answer.body.id as string);
      if (acknowledged.length === KILL_AFTER) {
        killed = true;
        await runtime.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
  return acknowledged;
}

describe('a runtime killed mid-load', () => {
  it('delivers, once started again on the same data folder, the event of every bundle whose create was answered 201', {
    timeout: 180_000,
  }, async () => {
    const path = '/crash';
    const acknowledged: string[] = [];
    // The dispatcher is held while loading, so the events wait in the queue: only what the
    // queue kept across the kills can be delivered at the end.
    child = await startRuntimeProcess(dir, { holdWebhooks: true });
    const hook = await call(child, 'POST', 'webhooks/', {
      url: receiver.url(path),
      event_types: ['bundle_sent'],
    });
    expect(hook.status).toBe(201);
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) child = await startRuntimeProcess(dir, { holdWebhooks: true });
      acknowledged.push(...(await loadThenKill(child, round)));
    }
    // A create answered while the kill is on its way is acknowledged too: at least that many.
    expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * KILL_AFTER);

    child = await startRuntimeProcess(dir);
    const deliveredBundles = () => {
      const byEvent = new Map<string, string>();
      for (const c of receiver.callsTo(path)) {
        const body = JSON.parse(c.body) as { event_id: string; payload: { bundle_id: string } };
        byEvent.set(body.event_id, body.payload.bundle_id);
      }
      return new Set(byEvent.values());
    };
    const missing = () => acknowledged.filter((id) => !deliveredBundles().has(id));
    await eventually(() => missing().length === 0, 30_000, 'every acknowledged event delivered').catch(
      () => undefined,
    );
    expect(missing()).toEqual([]);
  });
});
