// The operator's retention commands against a running local runtime: the policy a new bundle
// takes, and a legal hold set and released as the operator, recorded in the audit trail.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { admin, type TAdminRun } from '../helpers/admin-cli';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let dir: string;
let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

async function ok(...args: string[]): Promise<TAdminRun> {
  const run = await admin(dir, ...args);
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return run;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-retention-'));
  runtime = await startTestRuntime({ memory: false, dataDir: dir });
  call = apiClient(runtime);
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('retention commands', () => {
  it('set the policy new bundles carry, and hold and release a bundle as the operator', async () => {
    const account = runtime.demo.accountId;
    const set = await ok(
      'set-retention',
      '--account',
      account,
      '--finals-days',
      '3650',
      '--images-days',
      '7',
    );
    expect(set.stdout).toContain('finals_days 3650');
    expect((await call('GET', '/account/retention/')).body).toEqual({
      originals_days: null,
      finals_days: 3650,
      images_days: 7,
    });
    const refused = await admin(dir, 'set-retention', '--account', account, '--images-days', 'soon');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('whole number');

    const made = await call('POST', '/bundles/', { json: aBundle({}, await aPdfB64()) });
    expect(made.status, made.text).toBe(201);
    const bundle = made.body.id as string;
    await ok('legal-hold', '--account', account, '--bundle', bundle);
    const held = (await call('GET', `/bundles/${bundle}/legal_hold/`)).body;
    expect(held.legal_hold.set_by).toBe('operator');
    expect(held.policy).toEqual({ originals_days: null, finals_days: 3650, images_days: 7 });
    await ok('release-legal-hold', '--account', account, '--bundle', bundle);
    expect((await call('GET', `/bundles/${bundle}/legal_hold/`)).body.legal_hold).toBeNull();
    const events = (await call('GET', `/bundles/${bundle}/events/?include_actor=true`)).body as {
      kind: string;
      actor?: unknown;
    }[];
    expect(events.filter((e) => e.kind === 'lh' || e.kind === 'lx').map((e) => e.kind)).toEqual(['lh', 'lx']);
  });
});
