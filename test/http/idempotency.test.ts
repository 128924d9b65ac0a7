// Idempotency-Key on the keyed API's writes, through real HTTP against the local runtime.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { idempotencyKeys } from '#shared/adapters/dynamodb/entities/idempotency';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { anEnvelopeTemplate, seedDocTemplate } from '../helpers/envelope-templates';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

/** A fresh account, so its bundle count is this test's alone. */
async function freshAccount(name: string) {
  const account = await runtime.seedAccount(name, `${randomUUID()}@example.com`);
  return apiClient(runtime, account.apiKey);
}

async function bundleCount(call: ReturnType<typeof apiClient>): Promise<number> {
  const res = await call('GET', '/bundles/');
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-blueink-pagination')!.split(',')[3]);
}

const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('the same key and request again', () => {
  it('answers the first answer again, marked as a replay, and creates one bundle', async () => {
    const call = await freshAccount('Retry Co');
    const key = randomUUID();
    const body = aBundle({ label: 'Retried lease' }, b64);
    const first = await call('POST', '/bundles/', { json: body, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await call('POST', '/bundles/', { json: body, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/json');
    expect(again.text).toBe(first.text);
    // The retry is its own request: its own id, and the rate limit headers of now.
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await bundleCount(call)).toBe(1);
  });

  it('treats the path with or without its trailing slash as the same request', async () => {
    const call = await freshAccount('Slash Co');
    const key = randomUUID();
    const body = aBundle({}, b64);
    const first = await call('POST', '/bundles/', { json: body, headers: withKey(key) });
    const again = await call('POST', '/bundles', { json: body, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await bundleCount(call)).toBe(1);
  });

  it('runs the work once when ten identical requests arrive at once', async () => {
    const call = await freshAccount('Stampede Co');
    const key = randomUUID();
    const body = aBundle({ label: 'Stampede' }, b64);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/bundles/', { json: body, headers: withKey(key) })),
    );
    // Each is the first answer, or (had the first outlasted the wait) 409 in flight: never a second bundle.
    const created = answers.filter((a) => a.status === 201);
    const inFlight = answers.filter((a) => a.status === 409);
    expect(created.length + inFlight.length).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const a of inFlight) {
      expect(a.body.code).toBe('idempotency_in_flight');
      expect(a.headers.get('retry-after')).toBe('1');
    }
    expect(await bundleCount(call)).toBe(1);
  });

  it('replays a multipart request sent again with the same bytes', async () => {
    const call = await freshAccount('Multipart Co');
    const form = new FormData();
    const { documents: _documents, ...rest } = aBundle({}, b64);
    form.append('bundle_request', JSON.stringify({ ...rest, documents: [{ key: 'up', file_index: 0 }] }));
    form.append('files[0]', new Blob([Buffer.from(b64, 'base64')], { type: 'application/pdf' }), 'a.pdf');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const raw = Buffer.from(await encoded.arrayBuffer());
    const contentType = encoded.headers.get('content-type')!;
    const key = randomUUID();
    const first = await call('POST', '/bundles/', { raw, contentType, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    const again = await call('POST', '/bundles/', { raw, contentType, headers: withKey(key) });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await bundleCount(call)).toBe(1);
  });

  it('replays a PUT and a PATCH', async () => {
    const call = await freshAccount('Writes Co');
    const bundle = await call('POST', '/bundles/', { json: aBundle({ status: 'dr' }, b64) });
    const putKey = randomUUID();
    const tags = { tags: ['retried'] };
    const put = await call('PUT', `/bundles/${bundle.body.id}/add_tags/`, {
      json: tags,
      headers: withKey(putKey),
    });
    expect(put.status, put.text).toBe(200);
    // A change made since: a replay answers what the first request answered, not the state of now.
    await call('PUT', `/bundles/${bundle.body.id}/add_tags/`, { json: { tags: ['later'] } });
    const putAgain = await call('PUT', `/bundles/${bundle.body.id}/add_tags/`, {
      json: tags,
      headers: withKey(putKey),
    });
    expect(putAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(putAgain.body.tags).toEqual(put.body.tags);
    expect(putAgain.body.tags).not.toContain('later');

    const person = await call('POST', '/persons/', { json: { name: 'Ann Lee', channels: [] } });
    const patchKey = randomUUID();
    const patch = await call('PATCH', `/persons/${person.body.id}/`, {
      json: { name: 'Ann Lee-Roe' },
      headers: withKey(patchKey),
    });
    expect(patch.status).toBe(200);
    const patchAgain = await call('PATCH', `/persons/${person.body.id}/`, {
      json: { name: 'Ann Lee-Roe' },
      headers: withKey(patchKey),
    });
    expect(patchAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(patchAgain.text).toBe(patch.text);
  });

  it('replays a refusal: a request that failed with 400 fails the same way again', async () => {
    const call = await freshAccount('Refused Co');
    const key = randomUUID();
    const first = await call('POST', '/persons/', { json: { channels: [] }, headers: withKey(key) });
    expect(first.status).toBe(400);
    const again = await call('POST', '/persons/', { json: { channels: [] }, headers: withKey(key) });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers without a key as before: each request does its work', async () => {
    const call = await freshAccount('Keyless Co');
    const body = aBundle({}, b64);
    await call('POST', '/bundles/', { json: body });
    const second = await call('POST', '/bundles/', { json: body });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await bundleCount(call)).toBe(2);
  });
});

describe('the same key with another request', () => {
  it('answers 422 idempotency_key_reused for another body, and does nothing', async () => {
    const call = await freshAccount('Reuse Co');
    const key = randomUUID();
    await call('POST', '/bundles/', { json: aBundle({ label: 'One' }, b64), headers: withKey(key) });
    const other = await call('POST', '/bundles/', {
      json: aBundle({ label: 'Two' }, b64),
      headers: withKey(key),
    });
    expect(other.status).toBe(422);
    expect(isErrorBody(other.body)).toBe(true);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.body.message).toMatch(/new key/);
    expect(await bundleCount(call)).toBe(1);
  });

  it('lets one of several different requests arriving at once under one key do its work', async () => {
    const call = await freshAccount('Race Co');
    const key = randomUUID();
    const answers = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((label) =>
        call('POST', '/bundles/', { json: aBundle({ label }, b64), headers: withKey(key) }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422, 422]);
    expect(await bundleCount(call)).toBe(1);
  });

  it('answers 422 for another path, and after a refusal was kept', async () => {
    const call = await freshAccount('Paths Co');
    const key = randomUUID();
    const refused = await call('POST', '/persons/', { json: { channels: [] }, headers: withKey(key) });
    expect(refused.status).toBe(400);
    const fixed = await call('POST', '/persons/', {
      json: { name: 'Ann', channels: [] },
      headers: withKey(key),
    });
    expect(fixed.status).toBe(422);
    const elsewhere = await call('POST', '/webhooks/', {
      json: { url: 'https://example.com/hook' },
      headers: withKey(key),
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.code).toBe('idempotency_key_reused');
  });
});

describe('keys belong to their account', () => {
  it('lets another account use the same key for its own request', async () => {
    const one = await freshAccount('Key One Co');
    const two = await freshAccount('Key Two Co');
    const key = randomUUID();
    const body = aBundle({}, b64);
    const a = await one('POST', '/bundles/', { json: body, headers: withKey(key) });
    const b = await two('POST', '/bundles/', { json: body, headers: withKey(key) });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    const otherBody = await two('POST', '/persons/', {
      json: { name: 'Bo', channels: [] },
      headers: withKey(randomUUID()),
    });
    expect(otherBody.status).toBe(201);
    expect(await bundleCount(one)).toBe(1);
    expect(await bundleCount(two)).toBe(1);
  });
});

describe('the record', () => {
  it("is kept in the table under the account and the key for 24 hours, by the table's TTL", async () => {
    const account = await runtime.seedAccount('Stored Co', `${randomUUID()}@example.com`);
    const key = randomUUID();
    const before = Date.now();
    const res = await apiClient(runtime, account.apiKey)('POST', '/persons/', {
      json: { name: 'Kept', channels: [] },
      headers: withKey(key),
    });
    expect(res.status).toBe(201);
    const { Item } = await runtime.db.send(
      new GetCommand({
        TableName: runtime.config.tableName,
        Key: idempotencyKeys.item(account.accountId, key),
      }),
    );
    expect(Item).toMatchObject({ entity: 'idempotency', state: 'completed', accountId: account.accountId });
    expect(Item!.answer.body).toBe(res.text);
    const day = 24 * 3600;
    expect(Item!.ttl).toBeGreaterThanOrEqual(Math.floor(before / 1000) + day);
    expect(Item!.ttl).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + day);
  });
});

describe('the key itself', () => {
  const call = () => apiClient(runtime);
  it.each([
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé-1'],
    ['holding a tab', 'key\tone'],
    ['empty', ''],
  ])('answers 400 invalid naming the header when it is %s, and does nothing', async (_what, key) => {
    const name = `Nobody ${randomUUID()}`;
    const res = await call()('POST', '/persons/', { json: { name, channels: [] }, headers: withKey(key) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(res.body.errors[0].field).toBe('Idempotency-Key');
    const found = await call()('GET', `/persons/?search=${encodeURIComponent(name)}`);
    expect(found.body).toEqual([]);
  });

  it('takes 255 printable characters', async () => {
    const key = `${randomUUID()}:${'~'.repeat(255 - 37)}`;
    const res = await call()('POST', '/persons/', {
      json: { name: 'Long Key', channels: [] },
      headers: withKey(key),
    });
    expect(res.status).toBe(201);
  });
});

describe('a retry after the work was done but its answer was lost', () => {
  // What a crash (kill -9, or a Lambda stopped at its timeout) between the work and keeping its
  // answer leaves: the item written, the key's record gone (here deleted, as a lapsed claim is
  // taken over). The retry must find the item, not make a second.
  const loseAnswer = (accountId: string, key: string) =>
    runtime.db.send(
      new DeleteCommand({ TableName: runtime.config.tableName, Key: idempotencyKeys.item(accountId, key) }),
    );

  it.each([
    ['a bundle', '/bundles/', () => aBundle({ label: 'Lost answer' }, b64), '/bundles/'],
    [
      'a person',
      '/persons/',
      () => ({ name: 'Ann Lee', channels: [{ email: 'ann@example.com' }] }),
      '/persons/',
    ],
    [
      'a webhook',
      '/webhooks/',
      () => ({ url: 'https://example.com/hook', event_types: ['bundle_sent'] }),
      '/webhooks/',
    ],
    [
      'a document template',
      '/templates/',
      () => ({ name: 'Lease', file_b64: b64, roles: [{ key: 'tenant', label: 'Tenant' }] }),
      '/templates/',
    ],
  ])('answers %s made by the first run, and makes no second', async (_what, path, body, listPath) => {
    const account = await runtime.seedAccount('Lost Co', `${randomUUID()}@example.com`);
    const call = apiClient(runtime, account.apiKey);
    const key = randomUUID();
    const ids = async () => (await call('GET', listPath)).body.map((i: { id: string }) => i.id) as string[];
    // The account's own user is a person already.
    const before = new Set(await ids());
    const first = await call('POST', path, { json: body(), headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    await loseAnswer(account.accountId, key);

    const retry = await call('POST', path, { json: body(), headers: withKey(key) });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    expect((await ids()).filter((id) => !before.has(id))).toEqual([first.body.id]);
  });

  it('answers the bulk send made by the first run, whose rows go out once', async () => {
    const account = await runtime.seedAccount('Lost Bulk Co', `${randomUUID()}@example.com`);
    const call = apiClient(runtime, account.apiKey);
    const key = randomUUID();
    const body = {
      bundle: aBundle({ label: 'Lost bulk', packets: [{ key: 'ann' }] }, b64),
      rows: [{ signers: { ann: { name: 'Ann Lee', email: 'ann@example.com' } } }],
    };
    const first = await call('POST', '/bundles/bulk/', { json: body, headers: withKey(key) });
    expect(first.status, first.text).toBe(202);
    await loseAnswer(account.accountId, key);
    const retry = await call('POST', '/bundles/bulk/', { json: body, headers: withKey(key) });
    expect(retry.status, retry.text).toBe(202);
    expect(retry.body.id).toBe(first.body.id);
    await eventually(
      async () => (await call('GET', `/bundles/bulk/${first.body.id}/`)).body.status === 'completed',
      30_000,
      'the batch to complete',
    );
    expect(await bundleCount(call)).toBe(1);
  });

  it('answers the envelope template made by the first run, and makes no second', async () => {
    const account = await runtime.seedAccount('Lost Envelope Co', `${randomUUID()}@example.com`);
    const call = apiClient(runtime, account.apiKey);
    const body = anEnvelopeTemplate([await seedDocTemplate(runtime, account.accountId)]);
    const key = randomUUID();
    const first = await call('POST', '/envelope-templates/', { json: body, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    await loseAnswer(account.accountId, key);
    const retry = await call('POST', '/envelope-templates/', { json: body, headers: withKey(key) });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    const listed = await call('GET', '/envelope-templates/');
    expect(listed.body.map((t: { id: string }) => t.id)).toEqual([first.body.id]);
  });
});
