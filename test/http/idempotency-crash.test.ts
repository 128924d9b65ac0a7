// Creates under Idempotency-Keys in flight when the runtime is killed (kill -9), retried with
// the same keys once it is started again on the same data folder: exactly one bundle per key,
// whether the kill came before the bundle was written, after it, or after its answer was kept.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { startRuntimeProcess, type TRuntimeProcess } from '../helpers/runtime-process';

// Loops of creates at once; the runtime is killed the moment the KILL_AFTER-th is answered, so
// the other loops' creates are cut off at whatever step they were.
const ROUNDS = 2;
const LOOPS = 6;
const KILL_AFTER = 15;
// A claim's lock lapses this long (plus a grace of 2 s) after its request started: a retry after
// the restart takes over a killed request's key within seconds.
const FUNCTION_TIMEOUT_MS = 5_000;

let pdf: string;
let dir: string;
let child: TRuntimeProcess | undefined;

beforeAll(async () => {
  pdf = await aPdfB64();
  dir = await mkdtemp(join(tmpdir(), 'esign-idem-crash-'));
});
afterAll(async () => {
  await child?.kill();
  await rm(dir, { recursive: true, force: true });
});

const start = () => startRuntimeProcess(dir, { functionTimeoutMs: FUNCTION_TIMEOUT_MS });

async function create(runtime: TRuntimeProcess, key: string) {
  const res = await fetch(`${runtime.apiUrl}bundles/`, {
    method: 'POST',
    headers: {
      authorization: `Token ${runtime.apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify(aBundle({ label: key }, pdf)),
  });
  return { status: res.status, body: (await res.json()) as { id?: string } };
}

/** Creates with a new key each until the KILL_AFTER-th 201, then kills: every key sent. */
async function loadThenKill(runtime: TRuntimeProcess): Promise<string[]> {
  const sent: string[] = [];
  let answered = 0;
  let killed = false;
  const loop = async () => {
    while (!killed) {
      const key = `crash-${randomUUID()}`;
      sent.push(key);
      let res: Awaited<ReturnType<typeof create>>;
      try {
        res = await create(runtime, key);
      } catch (err) {
        if (killed) return; // cut off by the kill: retried below
        throw err;
      }
      // A create that outran its timeout on the loaded machine is retried below like the others.
      if (res.status !== 201) {
        expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(500);
        continue;
      }
      if (++answered === KILL_AFTER) {
        killed = true;
        await runtime.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  return sent;
}

/** Retries a create as a client would (a 409 in flight or a server error: again) until it answers 201. */
async function retryUntilCreated(runtime: TRuntimeProcess, key: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await create(runtime, key);
    if (res.status === 201) return res.body.id!;
    expect([409, 500, 502], JSON.stringify(res.body)).toContain(res.status);
    if (attempt > 200) throw new Error(`the create under ${key} never answered 201`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function allBundles(runtime: TRuntimeProcess): Promise<{ id: string; label: string }[]> {
  const all: { id: string; label: string }[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${runtime.apiUrl}bundles/?per_page=100&page=${page}`, {
      headers: { authorization: `Token ${runtime.apiKey}` },
    });
    expect(res.status).toBe(200);
    const items = (await res.json()) as { id: string; label: string }[];
    all.push(...items);
    if (items.length < 100) return all;
  }
}

describe('creates cut off by kill -9, retried with the same keys', () => {
  it('make exactly one bundle per key', { timeout: 300_000 }, async () => {
    const keys: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      child = await start();
      keys.push(...(await loadThenKill(child)));
    }
    child = await start();
    const answered = new Map<string, string>();
    for (const key of keys) answered.set(key, await retryUntilCreated(child, key));

    const bundles = await allBundles(child);
    const byLabel = new Map<string, string[]>();
    for (const b of bundles) byLabel.set(b.label, [...(byLabel.get(b.label) ?? []), b.id]);
    const duplicated = keys.filter((k) => (byLabel.get(k) ?? []).length !== 1);
    expect(duplicated, `${duplicated.length} of ${keys.length} keys`).toEqual([]);
    // And each retry answered the one bundle its key made.
    for (const key of keys) expect(byLabel.get(key)).toEqual([answered.get(key)]);
  });
});
