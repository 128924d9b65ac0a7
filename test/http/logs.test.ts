import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
const lines: string[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime({ logLevel: 'debug' });
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l.trim() !== ''),
    );
    return write(chunk as string, ...(rest as []));
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await runtime.stop();
});

describe('logs', () => {
  it('are JSON lines carrying the request id, with no key, token or other secret in them', async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/persons/', {
      json: { name: 'Logged', channels: [{ email: 'logged@example.com' }] },
      headers: { 'x-api-key': 'leak-me-not', cookie: 'session=leak-me-not' },
    });
    await call('GET', `/persons/${created.body.id}/`);
    await call('GET', '/persons/', { key: `${'Z'.repeat(48)}` });
    await call('POST', '/persons/', { raw: '{bad', contentType: 'application/json' });

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === 'request' || e.msg === 'request refused');
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const e of requests) expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(requests.map((e) => e.requestId)).toContain(created.headers.get('x-request-id'));
    const all = lines.join('\n');
    expect(all).not.toContain(runtime.demo.apiKey);
    expect(all).not.toContain('Z'.repeat(48));
    expect(all).not.toContain('leak-me-not');
  });

  it('mask the link tokens that signing and preparation pages carry in their path', async () => {
    const call = apiClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: aBundle(
        { packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }] },
        await aPdfB64(),
      ),
    });
    expect(created.status, created.text).toBe(201);
    const link = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`);
    expect(link.status).toBe(201);
    const token = new URL(link.body.url).pathname.split('/').pop()!;
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
    const from = lines.length;
    expect((await fetch(link.body.url)).status).toBe(200);
    const unknown = 'Q'.repeat(43);
    expect((await fetch(`${runtime.baseUrl}/prepare/${unknown}`)).status).toBe(404);

    const logged = lines.slice(from).join('\n');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(unknown);
    expect(logged).toContain('/sign/[token]');
    expect(logged).toContain('/prepare/[token]');
  });
});
