// The MCP server's API client: every write carries one Idempotency-Key for all its tries, and a
// lost answer is asked again, so an agent's send is made once however the network behaves.
import { describe, expect, it } from 'vitest';
import { createEsignApi, EsignApiError } from '#shared/mcp/esign-api';

type TSeen = { method: string; url: string; key: string | null };

/** A fetch that answers from a script, one entry a call: a status and body, or 'drop' (no answer). */
function scripted(script: ({ status: number; body?: unknown } | 'drop')[]) {
  const seen: TSeen[] = [];
  const fake = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({ method: init?.method ?? 'GET', url: String(input), key: headers.get('idempotency-key') });
    const next = script.shift();
    if (!next) throw new Error('called more often than the script says');
    if (next === 'drop') throw new TypeError('fetch failed: socket hang up');
    return new Response(next.body === undefined ? '' : JSON.stringify(next.body), { status: next.status });
  }) as typeof fetch;
  const api = createEsignApi({
    baseUrl: 'http://api.test/api/v2/',
    apiKey: 'k',
    fetch: fake,
    retryDelayMs: 1,
  });
  return { api, seen };
}

describe('the MCP API client', () => {
  it('asks again after a dropped answer and a 503, with the same Idempotency-Key each time', async () => {
    const { api, seen } = scripted(['drop', { status: 503 }, { status: 201, body: { id: 'b1' } }]);
    const answer = await api.call('POST', '/bundles/', { json: { label: 'x' } });
    expect(answer).toMatchObject({ status: 201, body: { id: 'b1' } });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
  });

  it("uses the caller's key when given, and a new key for each separate call otherwise", async () => {
    const { api, seen } = scripted([{ status: 201 }, { status: 201 }, { status: 200 }]);
    await api.call('POST', '/bundles/', { json: {}, idempotencyKey: 'agent-send-7' });
    await api.call('PUT', '/bundles/b1/cancel/');
    await api.call('PUT', '/bundles/b1/cancel/');
    expect(seen[0]!.key).toBe('agent-send-7');
    expect(seen[1]!.key).not.toBe(seen[2]!.key);
  });

  it('waits out a first try still running (409 idempotency_in_flight), then answers what it made', async () => {
    const { api, seen } = scripted([
      { status: 409, body: { code: 'idempotency_in_flight', message: 'Still working.' } },
      { status: 201, body: { id: 'b2' } },
    ]);
    expect((await api.call('POST', '/bundles/', { json: {} })).body).toEqual({ id: 'b2' });
    expect(seen).toHaveLength(2);
  });

  it('does not ask again after a refusal, or more than three times in all', async () => {
    const refused = scripted([{ status: 400, body: { code: 'invalid', message: 'Invalid input.' } }]);
    await expect(refused.api.call('POST', '/bundles/', { json: {} })).rejects.toMatchObject({ status: 400 });
    expect(refused.seen).toHaveLength(1);

    const down = scripted([{ status: 502 }, { status: 503 }, { status: 504 }]);
    const err = await down.api.call('POST', '/bundles/', { json: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EsignApiError);
    expect((err as EsignApiError).status).toBe(504);
    expect(down.seen).toHaveLength(3);
  });

  it('sends no Idempotency-Key on reads', async () => {
    const { api, seen } = scripted(['drop', { status: 200, body: [] }]);
    await api.call('GET', '/bundles/', { query: { page: 1 } });
    expect(seen.map((s) => s.key)).toEqual([null, null]);
  });
});
