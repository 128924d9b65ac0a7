import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let server: Server;
let hits = 0;
let port = 0;

// The runtime fetches file_url as it does on AWS: https and public addresses only. Every
// address below is refused before any connection; the local server counts that none reached it.
beforeAll(async () => {
  runtime = await startTestRuntime({ productionFetch: true });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  server = createServer((_req, res) => {
    hits += 1;
    res.end('%PDF-');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await runtime.stop();
  await new Promise((r) => server.close(r));
});

describe('file_url in production configuration', () => {
  it.each([
    ['loopback over http', () => `http://127.0.0.1:${port}/a.pdf`],
    ['loopback over https', () => `https://127.0.0.1:${port}/a.pdf`],
    ['a private address', () => 'https://10.0.0.1/a.pdf'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `https://[::1]:${port}/a.pdf`],
    ['a decimal loopback', () => 'https://2130706433/a.pdf'],
    ['credentials in the URL', () => 'https://user:pass@example.com/a.pdf'],
    ['another scheme', () => 'file:///etc/passwd'],
  ])('refuses %s with a 400 naming the field', async (_name, url) => {
    const res = await call('POST', '/bundles/', { json: aBundle({ documents: [{ file_url: url() }] }, b64) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].field).toBe('documents[0].file_url');
    expect(res.text).not.toMatch(/ECONNREFUSED|EAI_AGAIN|10\.0\.0\.1:443/);
  });

  it('never connected to the local server', () => {
    expect(hits).toBe(0);
  });
});
