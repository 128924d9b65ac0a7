import http from 'node:http';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UnsafeUrlError } from '#shared/adapters/fetch/errors';
import { createSafeFetcher, type TLookup, type TSafeFetchOptions } from '#shared/adapters/fetch/safe-fetch';

// ---------------------------------------------------------------------------------------------
// Network guard. Every socket connect in this process goes through net.Socket.prototype.connect;
// the guard records each attempt and refuses, before any packet leaves, anything that is not
// 127.0.0.1 or ::1. Host names are allowed only with a lookup function (no real DNS traffic), and
// that lookup's answers are checked too. The check is written out here rather than borrowed from
// the code under test, so a bug there cannot weaken it.
// ---------------------------------------------------------------------------------------------

const LOOPBACK = new Set(['127.0.0.1', '::1']);
const attempts: string[] = [];
const violations: string[] = [];
const socketProto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
const originalConnect = socketProto.connect;

interface TConnectOptions {
  host?: unknown;
  port?: unknown;
  lookup?: unknown;
}

function guardedConnect(this: unknown, ...args: unknown[]): unknown {
  const first = args[0];
  const opts = (Array.isArray(first) ? first[0] : first) as TConnectOptions | undefined;
  const host = typeof opts === 'object' && opts !== null ? String(opts.host ?? '') : '';
  attempts.push(host);
  const refuse = (what: string) => {
    violations.push(what);
    throw new Error(`test network guard: refused ${what}`);
  };
  if (!opts || host === '') refuse('a connect without an explicit host');
  else if (net.isIP(host) !== 0) {
    if (!LOOPBACK.has(host)) refuse(`a connection to ${host}`);
  } else if (typeof opts.lookup !== 'function') {
    refuse(`a real DNS lookup of ${host}`);
  } else {
    const inner = opts.lookup as LookupFunction;
    const checked: LookupFunction = (hostname, options, callback) =>
      inner(hostname, options, (err, address, family) => {
        const list = typeof address === 'string' ? [address] : address.map((a) => a.address);
        const bad = list.filter((a) => a !== '' && !LOOPBACK.has(a));
        if (!err && bad.length > 0) {
          violations.push(`a connection to ${bad.join(', ')} for ${hostname}`);
          callback(new Error('test network guard: refused'), '');
          return;
        }
        callback(err, address, family);
      });
    opts.lookup = checked;
  }
  return originalConnect.apply(this, args);
}

// ---------------------------------------------------------------------------------------------
// Fake DNS: test host names resolve only through this table; every call is counted.
// ---------------------------------------------------------------------------------------------

const dnsTable: Record<string, string[]> = {
  'files.test': ['127.0.0.1'],
  'public.test': ['93.184.216.34'],
  'mixed.test': ['93.184.216.34', '10.0.0.5'],
  'mixed-loopback.test': ['127.0.0.1', '169.254.169.254'],
  'internal.test': ['10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'metadata6.test': ['fd00:ec2::254'],
  'mapped.test': ['::ffff:10.0.0.1'],
  'empty.test': [],
};
const lookupCalls: string[] = [];
let rebindCalls = 0;

const lookup: TLookup = async (hostname) => {
  lookupCalls.push(hostname);
  // Answers with loopback first and a private address afterwards, like a rebinding attacker's DNS.
  if (hostname === 'rebind.test') {
    rebindCalls += 1;
    return [{ address: rebindCalls === 1 ? '127.0.0.1' : '10.0.0.5', family: 4 }];
  }
  const found = dnsTable[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: net.isIP(address) }));
};

// ---------------------------------------------------------------------------------------------
// Local file server
// ---------------------------------------------------------------------------------------------

const MAX_BYTES = 1024;
const FILE = Buffer.from(`%PDF-1.7\n${'x'.repeat(200)}\n%%EOF\n`);
let server: http.Server;
let port = 0;
let base = '';
let serverConnections = 0;
let closedPort = 0;

const redirectsFor = (): Record<string, [number, string]> => ({
  '/r1': [302, '/r2'],
  '/r2': [301, 'sub/r3'],
  '/sub/r3': [307, `http://127.0.0.1:${port}/sub/r4`],
  '/sub/r4': [308, '../file'],
  '/loop': [302, '/loop'],
  '/to-metadata': [302, 'http://169.254.169.254/latest/meta-data/'],
  '/to-metadata6': [302, 'http://[fd00:ec2::254]/latest/meta-data/'],
  '/to-internal-name': [302, `http://internal.test:${port}/file`],
  '/to-credentials': [302, `http://user:secret@127.0.0.1:${port}/file`],
  '/to-ftp': [302, 'ftp://127.0.0.1/file'],
});

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const hop = redirectsFor()[req.url ?? ''];
  if (hop) {
    res.writeHead(hop[0], { location: hop[1] });
    res.end();
    return;
  }
  switch (req.url) {
    case '/file':
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': FILE.length });
      res.end(FILE);
      return;
    case '/echo-host':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.headers.host ?? '');
      return;
    case '/exact':
      res.writeHead(200, { 'content-length': MAX_BYTES });
      res.end(Buffer.alloc(MAX_BYTES, 1));
      return;
    case '/no-location':
      res.writeHead(302);
      res.end();
      return;
    case '/big-declared':
      // Only a few bytes of the declared body ever arrive: refusing it must not wait for the body.
      res.writeHead(200, { 'content-length': MAX_BYTES * 1000 });
      res.write(Buffer.alloc(10));
      return;
    case '/big-chunked':
      // No Content-Length: only counting while streaming can catch this one.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
      res.end();
      return;
    case '/stall-headers':
      return;
    case '/stall-body':
      res.writeHead(200, { 'content-length': 100 });
      res.write(Buffer.alloc(10));
      return;
    default:
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
  }
}

const localOptions: TSafeFetchOptions = {
  allowLoopback: true,
  allowHttp: true,
  maxBytes: MAX_BYTES,
  timeoutMs: 10_000,
  maxRedirects: 4,
  lookup,
};
const productionOptions: TSafeFetchOptions = { ...localOptions, allowLoopback: false, allowHttp: false };
const local = createSafeFetcher(localOptions);
const production = createSafeFetcher(productionOptions);

async function refusal(promise: Promise<unknown>): Promise<UnsafeUrlError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UnsafeUrlError);
    return err as UnsafeUrlError;
  }
  throw new Error('expected the fetch to be refused');
}

beforeAll(async () => {
  socketProto.connect = guardedConnect;
  server = http.createServer(route);
  server.on('connection', () => {
    serverConnections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  // A port that was just free: connecting to it is refused by the kernel, locally.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  socketProto.connect = originalConnect;
});

beforeEach(() => {
  attempts.length = 0;
  lookupCalls.length = 0;
  serverConnections = 0;
  rebindCalls = 0;
});

afterEach(() => {
  // Cleared before asserting so that one failure is reported by the test that caused it only.
  const seen = violations.splice(0);
  expect(seen).toEqual([]);
});

describe('local runtime (loopback and http allowed)', () => {
  it('fetches a file with its content type and final URL', async () => {
    const out = await local(`${base}/file`);
    expect(out.bytes.equals(FILE)).toBe(true);
    expect(out.contentType).toBe('application/pdf');
    expect(out.finalUrl).toBe(`${base}/file`);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const out = await local(`${base}/exact`);
    expect(out.bytes.length).toBe(MAX_BYTES);
  });

  it('connects a host name to the checked address and keeps the Host header', async () => {
    const out = await local(`http://files.test:${port}/echo-host`);
    expect(out.bytes.toString()).toBe(`files.test:${port}`);
    expect(lookupCalls).toEqual(['files.test']);
  });

  it('normalizes odd IPv4 spellings before checking them', async () => {
    const out = await local(`http://0x7f.1:${port}/file`);
    expect(out.finalUrl).toBe(`${base}/file`);
    expect(out.bytes.equals(FILE)).toBe(true);
  });

  it('resolves once per hop, so a rebinding DNS answer is never used', async () => {
    const out = await local(`http://rebind.test:${port}/echo-host`);
    expect(out.bytes.toString()).toBe(`rebind.test:${port}`);
    expect(rebindCalls).toBe(1);
  });

  it('follows a redirect chain with relative and absolute locations', async () => {
    const out = await local(`${base}/r1`);
    expect(out.finalUrl).toBe(`${base}/file`);
    expect(out.bytes.equals(FILE)).toBe(true);
    expect(serverConnections).toBe(5);
  });

  it('stops after maxRedirects', async () => {
    const err = await refusal(local(`${base}/loop`));
    expect(err.reason).toBe('redirects');
    expect(serverConnections).toBe(localOptions.maxRedirects + 1);
    const strict = createSafeFetcher({ ...localOptions, maxRedirects: 0 });
    expect((await refusal(strict(`${base}/r1`))).reason).toBe('redirects');
  });

  it('refuses a redirect to the metadata address without connecting to it', async () => {
    const err = await refusal(local(`${base}/to-metadata`));
    expect(err.reason).toBe('address');
    expect(err.message).toContain(`${base}/to-metadata`);
    expect(err.message).not.toContain('169.254');
    expect(attempts).toEqual(['127.0.0.1']);
    expect(serverConnections).toBe(1);
  });

  it('refuses a redirect to the IPv6 metadata address without connecting to it', async () => {
    const err = await refusal(local(`${base}/to-metadata6`));
    expect(err.reason).toBe('address');
    expect(attempts).toEqual(['127.0.0.1']);
  });

  it('re-checks DNS on each hop: a redirect to a name resolving privately is refused before connecting', async () => {
    const err = await refusal(local(`${base}/to-internal-name`));
    expect(err.reason).toBe('address');
    expect(lookupCalls).toEqual(['internal.test']);
    expect(attempts).toEqual(['127.0.0.1']);
    expect(err.message).not.toContain('10.0.0.5');
  });

  it('re-checks credentials and scheme on each hop', async () => {
    const creds = await refusal(local(`${base}/to-credentials`));
    expect(creds.reason).toBe('credentials');
    expect(creds.message).not.toContain('secret');
    expect((await refusal(local(`${base}/to-ftp`))).reason).toBe('scheme');
    expect(attempts).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('refuses a body whose Content-Length exceeds maxBytes', async () => {
    const err = await refusal(local(`${base}/big-declared`));
    expect(err.reason).toBe('too_large');
    expect(err.message).toContain(String(MAX_BYTES));
  });

  it('aborts a streamed body once it passes maxBytes', async () => {
    expect((await refusal(local(`${base}/big-chunked`))).reason).toBe('too_large');
  });

  it('reports a non-2xx final status', async () => {
    const err = await refusal(local(`${base}/missing`));
    expect(err.reason).toBe('http_status');
    expect(err.status).toBe(404);
    expect(err.message).toContain('404');
    expect((await refusal(local(`${base}/no-location`))).status).toBe(302);
  });

  it('reports unreachable hosts', async () => {
    expect((await refusal(local(`http://127.0.0.1:${closedPort}/file`))).reason).toBe('unreachable');
    const unknown = await refusal(local(`http://nowhere.test:${port}/file`));
    expect(unknown.reason).toBe('unreachable');
    expect(unknown.message).not.toContain('ENOTFOUND');
    expect((await refusal(local(`http://empty.test:${port}/file`))).reason).toBe('unreachable');
  });

  describe('timeout (300 ms)', () => {
    const quick = createSafeFetcher({ ...localOptions, timeoutMs: 300 });

    it('covers waiting for response headers', async () => {
      expect((await refusal(quick(`${base}/stall-headers`))).reason).toBe('timeout');
    });

    it('covers reading the body', async () => {
      expect((await refusal(quick(`${base}/stall-body`))).reason).toBe('timeout');
    });

    it('covers DNS resolution', async () => {
      const hanging = createSafeFetcher({
        ...localOptions,
        timeoutMs: 300,
        lookup: () => new Promise(() => {}),
      });
      expect((await refusal(hanging(`http://files.test:${port}/file`))).reason).toBe('timeout');
      expect(attempts).toEqual([]);
    });
  });

  it.each([
    ['http://10.0.0.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://[fd00:ec2::254]/latest/meta-data/'],
    ['http://[fe80::1]/'],
    ['http://0.0.0.0/'],
    ['http://[::]/'],
    ['http://100.100.100.200/'],
    ['http://[::ffff:a9fe:a9fe]/'],
    ['http://[64:ff9b::10.0.0.1]/'],
    ['http://metadata.test/'],
    ['http://metadata6.test/'],
    ['http://mapped.test/'],
    ['http://mixed-loopback.test/'],
  ])('still refuses %s without connecting', async (url) => {
    expect((await refusal(local(url))).reason).toBe('address');
    expect(attempts).toEqual([]);
  });
});

describe('production (https only, public addresses only)', () => {
  it('refuses http before anything else', async () => {
    const err = await refusal(production(`${base}/file`));
    expect(err.reason).toBe('scheme');
    expect(err.message).toContain('only https');
  });

  it.each([
    ['https://127.0.0.1/'],
    ['https://10.0.0.1/'],
    ['https://[::1]/'],
    ['https://169.254.169.254/'],
    ['https://[fd00:ec2::254]/'],
    ['https://2130706433/'],
    ['https://0x7f.1/'],
    ['https://127.1/'],
    ['https://0177.0.0.1/'],
    ['https://[::ffff:10.0.0.1]/'],
    ['https://[::ffff:7f00:1]/'],
    ['https://[64:ff9b::a9fe:a9fe]/'],
    ['https://0.0.0.0/'],
    ['https://100.64.0.1/'],
    ['https://192.168.1.1/'],
    ['https://172.20.0.1/'],
    ['https://224.0.0.1/'],
    ['https://255.255.255.255/'],
    ['https://files.test/'],
    ['https://internal.test/'],
  ])('refuses %s for its address without connecting', async (url) => {
    expect((await refusal(production(url))).reason).toBe('address');
    expect(attempts).toEqual([]);
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const err = await refusal(production('https://mixed.test/report.pdf'));
    expect(err.reason).toBe('address');
    expect(err.message).toBe(
      'Refused to fetch "https://mixed.test/report.pdf": the host does not resolve to a public internet address.',
    );
    expect(lookupCalls).toEqual(['mixed.test']);
    expect(attempts).toEqual([]);
  });

  it('refuses non-standard ports before resolving', async () => {
    const err = await refusal(production('https://public.test:8443/file'));
    expect(err.reason).toBe('port');
    expect(lookupCalls).toEqual([]);
    expect((await refusal(production('https://public.test:80/file'))).reason).toBe('port');
  });

  it('refuses credentials without echoing them', async () => {
    const err = await refusal(production('https://user:hunter2@public.test/file'));
    expect(err.reason).toBe('credentials');
    expect(err.message).not.toContain('hunter2');
    expect(lookupCalls).toEqual([]);
  });

  it.each([
    ['ftp://public.test/file'],
    ['file:///etc/passwd'],
    ['data:text/plain,hello'],
    ['gopher://public.test/'],
    ['javascript:alert(1)'],
  ])('refuses the scheme of %s', async (url) => {
    expect((await refusal(production(url))).reason).toBe('scheme');
    expect(lookupCalls).toEqual([]);
  });

  it('refuses what is not a URL', async () => {
    expect((await refusal(production('not a url'))).reason).toBe('invalid_url');
  });

  afterEach(() => {
    expect(attempts).toEqual([]);
  });
});
