// POST /account/erasures/ over real HTTP: the report, the security log's line (who asked, the
// address's hash, never the address), what is left of the address in the table afterwards, and
// who may ask.
import { createHash, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { addUser } from '#shared/domain/accounts/add-user';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { accountDeps } from '../helpers/teams';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});

/** Every item of the table whose attributes hold `text` (case-insensitively). */
async function itemsHolding(text: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await runtime.db.send(
      new ScanCommand({ TableName: runtime.config.tableName, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) {
      if (JSON.stringify(item).toLowerCase().includes(text.toLowerCase())) found.push(item);
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return found;
}

describe('POST /account/erasures/', () => {
  it('erases the people at an email, lists their bundles and logs who asked', async () => {
    const address = `erase-${randomUUID()}@example.com`;
    const person = await call('POST', '/persons/', {
      json: { name: 'Ann Lee', channels: [{ email: address }] },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(person.status, person.text).toBe(201);
    // Another account's Person at the same address is not this account's to erase.
    const other = apiClient(
      runtime,
      (await runtime.seedAccount('Other Co', `o-${randomUUID()}@example.com`)).apiKey,
    );
    const theirs = await other('POST', '/persons/', {
      json: { name: 'Ann Lee', channels: [{ email: address }] },
    });
    expect(theirs.status, theirs.text).toBe(201);
    const b64 = await aPdfB64();
    const packets = [{ key: 'ann', name: 'Ann Lee', email: address }];
    const draft = await call('POST', '/bundles/', { json: aBundle({ packets, status: 'dr' }, b64) });
    expect(draft.status, draft.text).toBe(201);

    const erased = await call('POST', '/account/erasures/', {
      json: { email: address.toUpperCase() },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(erased.status, erased.text).toBe(200);
    const hash = createHash('sha256').update(`em:${address}`).digest('hex');
    expect(erased.body).toEqual({
      address_hash: hash,
      persons_removed: [person.body.id],
      bundles_to_act_on: [{ id: draft.body.id, status: 'dr' }],
      bundles_kept: [],
    });
    expect(erased.text).not.toContain(address);
    expect((await call('GET', `/persons/${person.body.id}/`)).status).toBe(404);
    expect((await other('GET', `/persons/${theirs.body.id}/`)).status).toBe(200);

    // One line of the security log: the key that asked, its user, the hash and the counts.
    const log = await call('GET', '/security_log/');
    const line = (log.body as { kind: string; subject_id?: string }[]).find((e) => e.subject_id === hash);
    const keys = (await call('GET', '/api-keys/')).body as { id: string }[];
    expect(line).toMatchObject({
      kind: 'person_erased',
      user_id: runtime.demo.userId,
      erasure: { persons_removed: 1, bundles_to_act_on: 1, bundles_kept: 0 },
    });
    expect(keys.map((k) => `api_key:${k.id}`)).toContain((line as { actor?: string }).actor);
    expect(log.text).not.toContain(address);

    // What still holds the address: the bundle the report lists, and the kept answers of
    // Idempotency-Key requests (the created Person), which expire within a day.
    const dayFromNow = Date.now() / 1000 + 24 * 3600;
    const holding = await itemsHolding(address);
    expect(holding.some((i) => String(i.pk).startsWith('IDEMPOTENCY#'))).toBe(true);
    for (const item of holding) {
      const named = JSON.stringify(item).includes(draft.body.id) || item.id === theirs.body.id;
      const expiring = String(item.pk).startsWith('IDEMPOTENCY#') && Number(item.ttl) <= dayFromNow + 60;
      expect(named || expiring, JSON.stringify(item)).toBe(true);
    }
  }, 60_000);

  it('answers 400 for no address, both, or one that is not valid; 403 for a user not admin', async () => {
    const refused = async (json: unknown) => {
      const r = await call('POST', '/account/erasures/', { json });
      expect(r.status, r.text).toBe(400);
      return JSON.stringify(r.body);
    };
    expect(await refused({})).toContain('Give either an email or a phone number, not both.');
    expect(await refused({ email: 'a@example.com', phone: '+15550100000' })).toContain('not both');
    expect(await refused({ email: 'not-an-address' })).toContain('Enter a valid email address.');
    expect(await refused({ phone: 'call me' })).toContain('Enter a valid phone number.');

    const d = accountDeps(runtime);
    const u = await addUser(d, runtime.demo.accountId, {
      name: 'Member',
      email: `m-${randomUUID()}@example.com`,
    });
    const member = apiClient(runtime, (await issueApiKey(d, runtime.demo.accountId, u.id)).secret);
    const denied = await member('POST', '/account/erasures/', { json: { email: 'a@example.com' } });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.text).toContain('Only account admins may erase');
  });
});
