import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TLookup } from '#shared/adapters/fetch/safe-fetch';
import { createWebhookCaller, WEBHOOK_TIMEOUT_MS } from '#shared/adapters/fetch/webhook-caller';

// ---------------------------------------------------------------------------------------------
// Network guard: every connect attempt is recorded, and anything but 127.0.0.1 is refused before a
// packet leaves. Written out here rather than borrowed from the code under test, so a bug there
// cannot weaken it.
// ---------------------------------------------------------------------------------------------

const attempts: string[] = [];
const violations: string[] = [];
const socketProto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
const originalConnect = socketProto.connect;

function guardedConnect(this: unknown, ...args: unknown[]): unknown {
  const first = args[0];
  const opts = (Array.isArray(first) ? first[0] : first) as { host?: unknown } | undefined;
  const host = typeof opts === 'object' && opts !== null ? String(opts.host ?? '') : '';
  attempts.push(host);
  // Host names reach here too, but only with the caller's pinned lookup, which the tests below feed
  // from `lookup`; an IP literal other than loopback would be a real packet.
  if (net.isIP(host) !== 0 && host !== '127.0.0.1') {
    violations.push(host);
    throw new Error(`test network guard: refused a connection to ${host}`);
  }
  return originalConnect.apply(this, args);
}

const lookup: TLookup = async (hostname) => {
  if (hostname === 'hooks.example.test') return [{ address: '10.1.2.3', family: 4 }];
  if (hostname === 'local.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

// ---------------------------------------------------------------------------------------------
// Receivers
// ---------------------------------------------------------------------------------------------

interface TReceived {
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

let receiver: http.Server;
let landing: http.Server;
let base = '';
let landingHits = 0;
let closedPort = 0;
const received: TReceived[] = [];
/** Resolved when the receiver sees the connection of `/endless` close. */
let endlessClosed: Promise<void> = Promise.resolve();
let onEndlessClosed = () => {};

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ url: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
    switch (req.url?.split('?')[0]) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('thanks');
        return;
      case '/fail':
        res.writeHead(500);
        res.end('broken');
        return;
      case '/redirect':
        res.writeHead(302, { location: `http://127.0.0.1:${(landing.address() as AddressInfo).port}/` });
        res.end();
        return;
      case '/stall':
        return;
      case '/slow-body':
        // Status and headers now, the body never: the call is done when the status arrives.
        res.writeHead(200, { 'content-length': 1000 });
        res.write('partial');
        return;
      case '/endless': {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(16 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
        };
        res.on('drain', pump);
        res.on('close', () => onEndlessClosed());
        pump();
        return;
      }
      default:
        res.writeHead(404);
        res.end();
    }
  });
}

const local = createWebhookCaller({ allowHttp: true, allowLoopback: true }, { lookup });
const production = createWebhookCaller({ allowHttp: false, allowLoopback: false }, { lookup });
const JSON_TYPE: [string, string][] = [['content-type', 'application/json']];

beforeAll(async () => {
  socketProto.connect = guardedConnect;
  receiver = http.createServer(route);
  landing = http.createServer((_req, res) => {
    landingHits += 1;
    res.end('landed');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // A port that was just free: connecting to it is refused by the kernel, locally.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  for (const server of [receiver, landing]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  socketProto.connect = originalConnect;
});

beforeEach(() => {
  attempts.length = 0;
  received.length = 0;
  landingHits = 0;
  endlessClosed = new Promise<void>((resolve) => {
    onEndlessClosed = resolve;
  });
});

afterEach(() => {
  vi.useRealTimers();
  // Cleared before asserting so that one failure is reported by the test that caused it only.
  const seen = violations.splice(0);
  expect(seen).toEqual([]);
});

describe('answers', () => {
  it('counts a 2xx answer as delivered', async () => {
    expect(await local.post(`${base}/ok`, JSON_TYPE, '{}')).toEqual({ status: 200, ok: true, message: '' });
  });

  it('reports a 500 with its status', async () => {
    const out = await local.post(`${base}/fail`, JSON_TYPE, '{}');
    expect(out.status).toBe(500);
    expect(out.ok).toBe(false);
    expect(out.message).toContain('500');
  });

  it('does not follow a redirect', async () => {
    const out = await local.post(`${base}/redirect`, JSON_TYPE, '{}');
    expect(out).toEqual({ status: 302, ok: false, message: 'redirects are not followed (HTTP 302)' });
    expect(landingHits).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('is done when a 2xx status arrives, without waiting for the body', async () => {
    const quick = createWebhookCaller({ allowHttp: true, allowLoopback: true }, { timeoutMs: 300 });
    expect(await quick.post(`${base}/slow-body`, JSON_TYPE, '{}')).toEqual({
      status: 200,
      ok: true,
      message: '',
    });
  });

  it('stops reading an endless answer and closes the connection', async () => {
    // The deadline is out of reach, so only the read cap can close the socket before this test's timeout.
    const patient = createWebhookCaller({ allowHttp: true, allowLoopback: true }, { timeoutMs: 3_600_000 });
    expect((await patient.post(`${base}/endless`, JSON_TYPE, '{}')).ok).toBe(true);
    await endlessClosed;
  }, 10_000);
});

describe('request', () => {
  it('sends the headers in the given order and the body intact', async () => {
    const body = JSON.stringify({ event: 'bundle_complete', name: 'Zoë ✓' });
    const headers: [string, string][] = [
      ['X-Zeta', 'z'],
      ['content-type', 'application/json'],
      ['X-Alpha', 'a'],
      ['x-blueink-signature', 't=1,v1=abc'],
      ['X-Zeta', 'again'],
    ];
    expect((await local.post(`${base}/ok?via=test`, headers, body)).ok).toBe(true);
    expect(received).toHaveLength(1);
    const { url, rawHeaders, body: got } = received[0]!;
    expect(url).toBe('/ok?via=test');
    const port = new URL(base).port;
    expect(rawHeaders).toEqual([
      'host',
      `127.0.0.1:${port}`,
      'X-Zeta',
      'z',
      'content-type',
      'application/json',
      'X-Alpha',
      'a',
      'x-blueink-signature',
      't=1,v1=abc',
      'X-Zeta',
      'again',
      'user-agent',
      'open-esign-webhooks/1',
      'content-length',
      String(Buffer.byteLength(body)),
      'Connection',
      'close',
    ]);
    expect(got.toString('utf8')).toBe(body);
  });

  it('keeps the host and framing headers to itself', async () => {
    const headers: [string, string][] = [
      ['Host', 'elsewhere.test'],
      ['Content-Length', '1'],
      ['Transfer-Encoding', 'chunked'],
      ['content-type', 'text/plain'],
    ];
    expect((await local.post(`http://local.test:${new URL(base).port}/ok`, headers, 'hello')).ok).toBe(true);
    const { rawHeaders, body } = received[0]!;
    expect(rawHeaders.slice(0, 2)).toEqual(['host', `local.test:${new URL(base).port}`]);
    expect(rawHeaders.map((h) => h.toLowerCase())).not.toContain('transfer-encoding');
    expect(body.toString()).toBe('hello');
  });

  it('refuses a header that HTTP cannot carry, without throwing', async () => {
    const out = await local.post(`${base}/ok`, [['x-note', 'line\r\nbreak']], '{}');
    expect(out.status).toBe(0);
    expect(out.ok).toBe(false);
    expect(out.message).toMatch(/^refused: /);
    expect(received).toHaveLength(0);
  });
});

describe('no answer', () => {
  it('gives up at the deadline when the receiver never answers', async () => {
    const quick = createWebhookCaller({ allowHttp: true, allowLoopback: true }, { timeoutMs: 300 });
    const out = await quick.post(`${base}/stall`, JSON_TYPE, '{}');
    expect(out).toEqual({ status: 0, ok: false, message: 'no answer within 0.3 s' });
  });

  it('uses a 10 s deadline by default', async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    // A lookup that never answers and fake timers: the deadline is observed without waiting for it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hanging = createWebhookCaller(
      { allowHttp: true, allowLoopback: true },
      { lookup: () => new Promise(() => {}) },
    );
    let settled = false;
    const call = hanging.post('http://hanging.test/', JSON_TYPE, '{}').finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(WEBHOOK_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toEqual({ status: 0, ok: false, message: 'no answer within 10 s' });
    expect(attempts).toEqual([]);
  });

  it('reports a refused connection', async () => {
    const out = await local.post(`http://127.0.0.1:${closedPort}/`, JSON_TYPE, '{}');
    expect(out).toEqual({ status: 0, ok: false, message: 'the server refused the connection' });
  });

  it('reports a host name that does not resolve', async () => {
    const out = await local.post('http://nowhere.test/', JSON_TYPE, '{}');
    expect(out).toEqual({ status: 0, ok: false, message: 'the host name could not be resolved' });
    expect(out.message).not.toContain('ENOTFOUND');
    expect(attempts).toEqual([]);
  });

  it('refuses what is not a URL', async () => {
    expect(await local.post('not a url', JSON_TYPE, '{}')).toEqual({
      status: 0,
      ok: false,
      message: 'refused: not a valid absolute URL',
    });
  });
});

describe('production rules (https only, public addresses only)', () => {
  it('refuses plain http', async () => {
    const out = await production.post(`${base}/ok`, JSON_TYPE, '{}');
    expect(out).toEqual({ status: 0, ok: false, message: 'refused: only https URLs are accepted' });
  });

  it.each([
    ['https://127.0.0.1/'],
    ['https://169.254.169.254/'],
    ['https://10.0.0.1/'],
    ['https://[fd00:ec2::254]/'],
    ['https://hooks.example.test/'],
  ])('refuses %s for its address', async (url) => {
    const out = await production.post(url, JSON_TYPE, '{}');
    expect(out).toEqual({
      status: 0,
      ok: false,
      message: 'refused: the host does not resolve to a public internet address',
    });
  });

  it('refuses ports other than 443', async () => {
    const out = await production.post('https://hooks.example.test:8443/', JSON_TYPE, '{}');
    expect(out).toEqual({ status: 0, ok: false, message: 'refused: only port 443 is accepted' });
  });

  afterEach(() => {
    expect(attempts).toEqual([]);
    expect(received).toEqual([]);
  });
});
