import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { rawRequest } from '../helpers/raw-http';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  // A 1 s authorizer cache so the revocation test need not wait a minute.
  runtime = await startTestRuntime({ authorizerTtlSeconds: 1 });
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

describe('authentication', () => {
  it('answers 401 not_authenticated without an Authorization header', async () => {
    const res = await call('GET', '/persons/', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
    expect(isErrorBody(res.body)).toBe(true);
  });

  it('answers 401 authentication_failed for a wrong, malformed or differently-schemed key', async () => {
    for (const authorization of [
      `Token ${'x'.repeat(48)}`,
      'Token short',
      `Bearer ${runtime.demo.apiKey}`,
      'Token',
      runtime.demo.apiKey,
    ]) {
      const res = await call('GET', '/persons/', { key: null, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.code).toBe('authentication_failed');
    }
  });

  it('judges and caches a repeated Authorization header by the value the authorizer sees', async () => {
    const bogus = `Token ${'B'.repeat(48)}`;
    // Raw HTTP: clients merge or refuse repeated headers, API Gateway and this runtime do not.
    const send = (values: string[]) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(runtime.baseUrl);
        const socket = connect(Number(url.port), url.hostname, () => {
          const auth = values.map((v) => `Authorization: ${v}\r\n`).join('');
          socket.write(
            `GET /api/v2/persons/ HTTP/1.1\r\nHost: ${url.host}\r\n${auth}Connection: close\r\n\r\n`,
          );
        });
        let head = '';
        socket.on('data', (d) => {
          head += d.toString();
        });
        socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
        socket.on('error', reject);
      });
    // The last value wins, as in API Gateway's single-value header map.
    expect(await send([`Token ${runtime.demo.apiKey}`, bogus])).toBe(401);
    expect(await send([bogus, `Token ${runtime.demo.apiKey}`])).toBe(200);
    // The first request must not have cached "allowed" for the bogus value.
    expect((await call('GET', '/persons/', { key: null, headers: { authorization: bogus } })).status).toBe(
      401,
    );
  });

  it('stops accepting a revoked key once the authorizer cache expires', async () => {
    const other = await runtime.seedAccount('Revoked Co', 'admin@revoked.example');
    const otherCall = apiClient(runtime, other.apiKey);
    expect((await otherCall('GET', '/persons/')).status).toBe(200);
    const keys = createApiKeyStore(runtime.db, runtime.config.tableName);
    const [key] = await keys.listForAccount(other.accountId);
    await keys.revoke(other.accountId, key!.keyId, new Date());
    await new Promise((r) => setTimeout(r, 1100));
    const res = await otherCall('GET', '/persons/');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('authentication_failed');
  });

  it('stores API keys only as a hash', async () => {
    const keys = createApiKeyStore(runtime.db, runtime.config.tableName);
    const stored = await keys.listForAccount(runtime.demo.accountId);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(runtime.demo.apiKey);
    expect(stored[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another account's person on every operation, and leaves it untouched", async () => {
    const mine = await call('POST', '/persons/', {
      json: { name: 'Private', channels: [{ email: 'private@example.com' }] },
    });
    const other = await runtime.seedAccount('Other Co', 'admin@other.example');
    const theirs = apiClient(runtime, other.apiKey);
    const path = `/persons/${mine.body.id}/`;
    expect((await theirs('GET', path)).status).toBe(404);
    expect((await theirs('PATCH', path, { json: { name: 'Hijack' } })).status).toBe(404);
    expect((await theirs('PUT', path, { json: { name: 'Hijack' } })).status).toBe(404);
    expect((await theirs('DELETE', path)).status).toBe(404);
    const list = await theirs('GET', '/persons/?email=private@example.com');
    expect(list.body).toEqual([]);
    const search = await theirs('GET', '/persons/?search=private');
    expect(search.body).toEqual([]);
    expect((await call('GET', path)).body).toEqual(mine.body);
  });
});

describe('paths and methods', () => {
  it('answers with and without the trailing slash', async () => {
    const a = await call('GET', '/persons/');
    const b = await call('GET', '/persons');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect((await call('GET', '/rate_limit')).status).toBe(200);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await call('PUT', '/persons/', { json: {} });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
    const item = await call('POST', '/persons/6f1c1a4e-8a43-4a4b-9f59-2b9d8b0e0a11/', { json: {} });
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE');
  });

  it('answers 404 not_found for unknown paths', async () => {
    for (const path of ['/nothing/', '/persons/a/b/c/', '/']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('answers the API error body for paths sent under /api/v2 that lead out of it', async () => {
    // fetch resolves dot segments itself, so these go as the client wrote them.
    for (const path of [
      '/api/v2/x/../../',
      '/api/v2/../',
      '/api/v2/%2e%2e/%2e%2e/',
      '/api/v2/persons/../../../dev/mailbox',
      // The URL parser reads a backslash as a slash, and these raw paths still begin /api/v2.
      '/api/v2\\..\\..\\',
      '/api/v2\\..\\..\\dev\\mailbox',
      '/api/v2/x/..\\..\\..\\',
      '/api/v2%2f..%2f..%2fdev%2fmailbox',
      '/api/v2..',
      // The absolute form a client may send to a proxy: its path is what begins /api/v2.
      'http://localhost/api/v2/x/../../',
      'http://localhost/api/v2/%2e%2e/dev/mailbox',
    ]) {
      const res = await rawRequest(runtime.baseUrl, { path });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      const body = JSON.parse(res.text);
      expect(isErrorBody(body), path).toBe(true);
      expect(body.code, path).toBe('not_found');
    }
  });

  it('reads a path beginning // or /\\ as a path, never as a host and the path after it', async () => {
    // `//x/api/v2/persons/` resolved against a base is host `x` and path `/api/v2/persons/`.
    for (const path of ['//x/api/v2/persons/', '/\\x/api/v2/persons/', '//x/dev/mailbox']) {
      const res = await rawRequest(runtime.baseUrl, {
        path,
        headers: { authorization: `Token ${runtime.demo.apiKey}` },
      });
      expect(res.status, `${path}: ${res.text.slice(0, 100)}`).toBe(404);
    }
  });

  it('builds Link headers on the service base URL, whatever Host the client sends', async () => {
    const res = await rawRequest(runtime.baseUrl, {
      path: '/api/v2/persons/?per_page=1',
      headers: {
        host: 'attacker.example',
        'x-forwarded-proto': 'http',
        authorization: `Token ${runtime.demo.apiKey}`,
      },
    });
    expect(res.status, res.text).toBe(200);
    const links = String(res.headers.link).split(', ');
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      expect(link).toMatch(/^<([^>]+)>; rel="(first|prev|next|last)"$/);
      expect(
        link.startsWith(`<${runtime.baseUrl}/api/v2/persons?`) ||
          link.startsWith(`<${runtime.baseUrl}/api/v2/persons/?`),
        link,
      ).toBe(true);
      expect(link).not.toContain('attacker.example');
    }
  });

  it('sends a request id on every answer, errors included', async () => {
    const ok = await call('GET', '/persons/');
    const denied = await call('GET', '/persons/', { key: null });
    const missing = await call('GET', '/persons/nope/');
    for (const r of [ok, denied, missing]) expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('x-request-id')).not.toBe(missing.headers.get('x-request-id'));
  });
});

describe('request bodies', () => {
  it('answers 415 for an unsupported content type', async () => {
    const res = await call('POST', '/persons/', { raw: '<person/>', contentType: 'application/xml' });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('answers 400 parse_error for malformed JSON and for bytes that are not UTF-8', async () => {
    const bad = await call('POST', '/persons/', { raw: '{"name": ', contentType: 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('parse_error');
    const latin1 = await call('POST', '/persons/', {
      raw: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
      contentType: 'application/json',
    });
    expect(latin1.status).toBe(400);
    expect(latin1.body.code).toBe('parse_error');
  });

  it('answers 400 invalid when the JSON is not an object', async () => {
    for (const raw of ['[]', '"name"', '42', 'null']) {
      const res = await call('POST', '/persons/', { raw, contentType: 'application/json' });
      expect(res.status, raw).toBe(400);
      expect(res.body.code).toBe('invalid');
    }
  });

  it('answers 413 over the body size limit, from the function (1 MiB) and the gateway (10 MiB)', async () => {
    const fn = await call('POST', '/persons/', { json: { name: 'x', pad: 'y'.repeat(1024 * 1024) } });
    expect(fn.status).toBe(413);
    expect(fn.body.code).toBe('invalid');
    const gw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${runtime.baseUrl}/api/v2/persons/`,
        {
          method: 'POST',
          headers: {
            authorization: `Token ${runtime.demo.apiKey}`,
            'content-type': 'application/json',
            'content-length': String(11 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(gw.status).toBe(413);
    expect(isErrorBody(JSON.parse(gw.body))).toBe(true);
  });
});

describe('rate limit status', () => {
  it("reports the caller's quota, what is left, and the window in seconds", async () => {
    const before = await call('GET', '/rate_limit/');
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(['limit', 'remaining', 'reset', 'window']);
    expect(before.body.limit).toBe(1_000_000);
    expect(before.body.window).toBe(86_400);
    expect(before.body.reset).toBeGreaterThan(0);
    expect(before.body.reset).toBeLessThanOrEqual(86_400);
    await call('GET', '/persons/');
    await call('GET', '/persons/');
    const after = await call('GET', '/rate_limit/');
    // Two persons requests and the status request itself count.
    expect(after.body.remaining).toBe(before.body.remaining - 3);
  });
});
