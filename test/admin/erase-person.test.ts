// erase-person against a running local runtime: the Persons at an address go, bundles naming them
// are listed (unfinished: to act on; ended: kept, with until when), other addresses stay.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { admin } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let dir: string;
let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let accountId: string;
/** Every line the runtime logs, at its most talkative level: no line may hold the address. */
const logged: string[] = [];
const stdoutWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-erase-'));
  process.stdout.write = ((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  runtime = await startTestRuntime({ memory: false, dataDir: dir, logLevel: 'debug' });
  call = apiClient(runtime);
  accountId = runtime.demo.accountId;
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  process.stdout.write = stdoutWrite;
  await rm(dir, { recursive: true, force: true });
});

describe('npm run admin -- erase-person', () => {
  it('removes the Persons at an email and lists the bundles naming them', async () => {
    const b64 = await aPdfB64();
    const packets = [
      { key: 'ann', name: 'Ann Lee', email: 'Erase.Me@example.com' },
      { key: 'bob', name: 'Bob Roe', email: 'stays@example.com' },
    ];
    const fields = [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }];
    const body = aBundle({ packets, documents: [{ key: 'doc', file_b64: b64, fields }] }, b64);
    const draft = await call('POST', '/bundles/', { json: { ...body, status: 'dr' } });
    const sent = await call('POST', '/bundles/', { json: body });
    const ended = await call('POST', '/bundles/', { json: body });
    expect([draft.status, sent.status, ended.status]).toEqual([201, 201, 201]);
    expect((await call('PUT', `/bundles/${ended.body.id}/cancel/`)).status).toBe(200);
    const found = await call('GET', '/persons/?email=erase.me@example.com');
    expect(found.body.length).toBeGreaterThan(0);

    const run = await admin(
      dir,
      'erase-person',
      '--account',
      accountId,
      '--email',
      'erase.me@EXAMPLE.com',
      '--json',
    );
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const report = JSON.parse(run.stdout);
    expect(report.personsRemoved.sort()).toEqual(found.body.map((p: { id: string }) => p.id).sort());
    expect(report.bundlesToActOn.map((b: { id: string }) => b.id).sort()).toEqual(
      [draft.body.id, sent.body.id].sort(),
    );
    expect(report.bundlesKept).toEqual([{ id: ended.body.id, status: 'ca', keptUntil: null }]);
    expect(report.addressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(run.stdout).not.toMatch(/erase\.me/i);

    for (const p of found.body) expect((await call('GET', `/persons/${p.id}/`)).status).toBe(404);
    expect((await call('GET', '/persons/?email=erase.me@example.com')).body).toEqual([]);
    expect((await call('GET', '/persons/?email=stays@example.com')).body.length).toBeGreaterThan(0);
    // The bundles themselves are not changed: the sender decides.
    expect((await call('GET', `/bundles/${sent.body.id}/`)).status).toBe(200);

    // The account's security log says the operator asked, with the address's hash.
    const log = (await call('GET', '/security_log/')).body as Record<string, unknown>[];
    expect(log.find((e) => e.subject_id === report.addressHash)).toMatchObject({
      kind: 'person_erased',
      actor: 'operator',
      erasure: { persons_removed: found.body.length, bundles_to_act_on: 2, bundles_kept: 1 },
    });

    const again = await admin(dir, 'erase-person', '--account', accountId, '--email', 'erase.me@example.com');
    expect(again, again.stderr).toMatchObject({ code: 0 });
    expect(again.stderr).toContain('nothing erased');
    // The same through the API, with an Idempotency-Key: its body is not logged either.
    const viaApi = await call('POST', '/account/erasures/', {
      json: { email: 'Erase.Api@example.com' },
      headers: { 'Idempotency-Key': 'erase-api-1' },
    });
    expect(viaApi.status, viaApi.text).toBe(200);
    expect(logged.join('')).toContain('/account/erasures/');
    expect(logged.join('')).not.toMatch(/erase\.api@/i);
    // The runtime did log these requests, and none of its lines names the address.
    expect(logged.join('')).toContain('/persons/');
    expect(logged.join('')).not.toMatch(/erase\.me@/i);
  }, 60_000);

  it('refuses both an email and a phone, or neither, with exit code 2', async () => {
    const both = await admin(
      dir,
      'erase-person',
      '--account',
      accountId,
      '--email',
      'a@b.co',
      '--phone',
      '+15550100000',
    );
    const neither = await admin(dir, 'erase-person', '--account', accountId);
    expect([both.code, neither.code]).toEqual([2, 2]);
    expect(neither.stderr).toContain('either an email or a phone');
  });
});
