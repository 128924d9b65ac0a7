import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { webhookKeys } from '#shared/adapters/dynamodb/entities/webhook';
import { createWebhookSecretStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSecretCipher } from '#shared/adapters/secrets/cipher';
import { systemClock } from '#shared/adapters/system';
import { SECRET_OVERLAP_MS, signingSecrets } from '#shared/domain/webhooks/webhook-secret';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{43,}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function storedItem(accountId: string) {
  const out = await runtime.db.send(
    new GetCommand({
      TableName: runtime.config.tableName,
      Key: webhookKeys.secret(accountId),
      ConsistentRead: true,
    }),
  );
  return out.Item;
}

describe('webhook shared secret', () => {
  it('is generated on first read, then the same on every read', async () => {
    const first = await call('GET', '/webhooks/secret/');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      secret: expect.stringMatching(BASE58),
      create_date: expect.stringMatching(ISO),
    });
    const again = await call('GET', '/webhooks/secret');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('changes with POST and with GET on regenerate', async () => {
    const before = (await call('GET', '/webhooks/secret/')).body;
    const posted = await call('POST', '/webhooks/secret/regenerate/');
    expect(posted.status).toBe(200);
    expect(posted.body.secret).toMatch(BASE58);
    expect(posted.body.secret).not.toBe(before.secret);
    expect((await call('GET', '/webhooks/secret/')).body).toEqual(posted.body);

    const got = await call('GET', '/webhooks/secret/regenerate/');
    expect(got.status).toBe(200);
    expect(got.body.secret).toMatch(BASE58);
    expect(got.body.secret).not.toBe(posted.body.secret);
    expect((await call('GET', '/webhooks/secret/')).body).toEqual(got.body);
  });

  it('is per account', async () => {
    const other = await runtime.seedAccount('Other Co', 'other@example.com');
    const callOther = apiClient(runtime, other.apiKey);
    const mine = (await call('GET', '/webhooks/secret/')).body;
    const first = await callOther('GET', '/webhooks/secret/');
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(BASE58);
    expect(first.body.secret).not.toBe(mine.secret);
    await callOther('POST', '/webhooks/secret/regenerate/');
    expect((await call('GET', '/webhooks/secret/')).body).toEqual(mine);
  });

  it('agrees on one secret when first reads race', async () => {
    const fresh = await runtime.seedAccount('Racy Co', 'racy@example.com');
    const c = apiClient(runtime, fresh.apiKey);
    const answers = await Promise.all(Array.from({ length: 6 }, () => c('GET', '/webhooks/secret/')));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.secret)).size).toBe(1);
  });

  it('is stored sealed, never in plain text, bound to its account', async () => {
    const { secret } = (await call('POST', '/webhooks/secret/regenerate/')).body;
    const item = await storedItem(runtime.demo.accountId);
    expect(item).toBeDefined();
    const text = JSON.stringify(item);
    expect(text).not.toContain(secret);
    expect(item!.current.sealed).toMatch(/^local1:/);
    expect(item!.previous.sealed).toMatch(/^local1:/);
    // The sealed text opens for its own account only.
    const cipher = createSecretCipher(runtime.config);
    expect(await cipher.decrypt(item!.current.sealed, { accountId: runtime.demo.accountId })).toBe(secret);
    await expect(cipher.decrypt(item!.current.sealed, { accountId: 'someone-else' })).rejects.toThrow();
  });

  it('signs with the new and the previous secret during the overlap', async () => {
    const before = (await call('GET', '/webhooks/secret/')).body.secret;
    const after = (await call('POST', '/webhooks/secret/regenerate/')).body.secret;
    const deps = {
      webhookSecrets: createWebhookSecretStore(runtime.db, runtime.config.tableName),
      cipher: createSecretCipher(runtime.config),
      clock: systemClock,
    };
    const now = new Date();
    expect(await signingSecrets(deps, runtime.demo.accountId, now)).toEqual([after, before]);
    const later = new Date(now.getTime() + SECRET_OVERLAP_MS + 1000);
    expect(await signingSecrets(deps, runtime.demo.accountId, later)).toEqual([after]);
  });

  it('answers 405 for other methods, and does not take "secret" for a webhook id', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/webhooks/secret/', 'GET'],
      ['DELETE', '/webhooks/secret/', 'GET'],
      ['PATCH', '/webhooks/secret/', 'GET'],
      ['DELETE', '/webhooks/secret/regenerate/', 'GET'],
    ] as const) {
      const res = await call(method, path, { json: {} });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(isErrorBody(res.body)).toBe(true);
      expect(res.headers.get('allow') ?? '').toContain(allow);
    }
  });

  it('needs an API key', async () => {
    const res = await call('GET', '/webhooks/secret/', { key: null });
    expect(res.status).toBe(401);
  });
});
