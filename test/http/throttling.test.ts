import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalRuntime, type TRuntime } from '#infra/local/runtime';
import { throttleFor } from '#infra/stage-config';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

describe('usage plan', () => {
  it('throttles a burst beyond the bucket with 429 throttled and Retry-After', async () => {
    runtime = await startTestRuntime({ limits: { quotaLimit: 1000, rateLimit: 0.5, burstLimit: 3 } });
    const call = apiClient(runtime);
    const statuses: number[] = [];
    let throttled: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await call('GET', '/persons/');
      statuses.push(res.status);
      if (res.status === 429) throttled ??= res;
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(throttled!.body.code).toBe('throttled');
    expect(isErrorBody(throttled!.body)).toBe(true);
    expect(Number(throttled!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('counts each key on its own', async () => {
    runtime = await startTestRuntime({ limits: { quotaLimit: 2, rateLimit: 1000, burstLimit: 1000 } });
    const demo = apiClient(runtime);
    const other = apiClient(runtime, (await runtime.seedAccount('Other', 'o@example.com')).apiKey);
    expect((await demo('GET', '/persons/')).status).toBe(200);
    expect((await demo('GET', '/persons/')).status).toBe(200);
    const over = await demo('GET', '/persons/');
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('throttled');
    // Until the quota day ends: at most a day away.
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect((await other('GET', '/persons/')).status).toBe(200);
  });

  it("lets a client run's burst through under the stage's own plan (60 requests at once from one key)", async () => {
    // No test limits: the plan the stage deploys and `npm start` runs.
    runtime = await startTestRuntime({ limits: {} });
    const call = apiClient(runtime);
    const answers = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/persons/')));
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
  });

  it('still answers 429 past the burst of a --rate-limit plan, with the rate limit headers', async () => {
    // `--rate-limit 1`: one request a second, a bucket of ten seconds' worth.
    const limits = throttleFor(1);
    expect(limits).toEqual({ rateLimit: 1, burstLimit: 10 });
    runtime = await startTestRuntime({ limits: { quotaLimit: 1000, ...limits } });
    const call = apiClient(runtime);
    const answers = await Promise.all(Array.from({ length: 15 }, () => call('GET', '/persons/')));
    const ok = answers.filter((a) => a.status === 200);
    const throttled = answers.filter((a) => a.status === 429);
    expect(ok.length + throttled.length).toBe(15);
    expect(ok.length).toBeGreaterThanOrEqual(10);
    expect(throttled.length).toBeGreaterThan(0);
    const over = throttled[0]!;
    expect(over.body.code).toBe('throttled');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('x-ratelimit-limit')).toBe('1000');
    // The quota's standing: the ten or more admitted requests are counted, throttled ones are not.
    expect(Number(over.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(990);
  });

  it('puts X-RateLimit-Limit, -Remaining and -Reset on every API answer, as GET /rate_limit/ reports them', async () => {
    runtime = await startTestRuntime({ limits: { quotaLimit: 5, rateLimit: 1000, burstLimit: 1000 } });
    const call = apiClient(runtime);
    const limitsOf = (a: Awaited<ReturnType<typeof call>>) => ({
      limit: a.headers.get('x-ratelimit-limit'),
      remaining: a.headers.get('x-ratelimit-remaining'),
      reset: Number(a.headers.get('x-ratelimit-reset')),
    });
    const listed = await call('GET', '/persons/');
    expect(listed.status).toBe(200);
    expect(limitsOf(listed)).toMatchObject({ limit: '5', remaining: '4' });
    // Error answers of a handler carry them too.
    const missing = await call('GET', '/persons/P-doesnotexist/');
    expect(missing.status).toBe(404);
    expect(limitsOf(missing)).toMatchObject({ limit: '5', remaining: '3' });
    const status = await call('GET', '/rate_limit/');
    expect(limitsOf(status)).toMatchObject({
      limit: String(status.body.limit),
      remaining: String(status.body.remaining),
    });
    expect(status.body).toMatchObject({ limit: 5, remaining: 2 });
    // Read a moment apart, each rounded up to whole seconds.
    expect(Math.abs(limitsOf(status).reset - status.body.reset)).toBeLessThanOrEqual(1);
    // Reset: seconds until the quota day ends (UTC), as /rate_limit/'s `reset`.
    const reset = limitsOf(status).reset;
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(86_400);
    await call('GET', '/persons/');
    await call('GET', '/persons/');
    const over = await call('GET', '/persons/');
    expect(over.status).toBe(429);
    expect(limitsOf(over)).toMatchObject({ limit: '5', remaining: '0' });
    expect(limitsOf(over).reset).toBe(Number(over.headers.get('retry-after')));
  });

  it('reports the remaining quota going down to zero', async () => {
    runtime = await startTestRuntime({ limits: { quotaLimit: 3, rateLimit: 1000, burstLimit: 1000 } });
    const call = apiClient(runtime);
    const first = await call('GET', '/rate_limit/');
    expect(first.body).toMatchObject({ limit: 3, remaining: 2 });
    const second = await call('GET', '/rate_limit/');
    expect(second.body).toMatchObject({ limit: 3, remaining: 1 });
    const third = await call('GET', '/rate_limit/');
    expect(third.body).toMatchObject({ limit: 3, remaining: 0 });
    expect((await call('GET', '/rate_limit/')).status).toBe(429);
  });
});

describe('restart', () => {
  it('keeps data and the demo key across a restart of the runtime', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-restart-'));
    try {
      const first = await startLocalRuntime({ port: 0, dataDir: dir, logLevel: 'silent' });
      runtime = first;
      const created = await apiClient(first)('POST', '/persons/', {
        json: { name: 'Ann Lee', channels: [{ email: 'ann@example.com' }] },
      });
      expect(created.status).toBe(201);
      await first.stop();

      const second = await startLocalRuntime({ port: 0, dataDir: dir, logLevel: 'silent' });
      runtime = second;
      expect(second.demo.apiKey).toBe(first.demo.apiKey);
      expect(second.demo.accountId).toBe(first.demo.accountId);
      const got = await apiClient(second)('GET', `/persons/${created.body.id}/`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
      const found = await apiClient(second)('GET', '/persons/?email=ann@example.com');
      expect(found.body).toHaveLength(1);
    } finally {
      await runtime?.stop();
      runtime = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
