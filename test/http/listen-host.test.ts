// `--host 0.0.0.0` opens the service's own port to the network and nothing else: the stand-ins
// behind it check no credentials (or well-known ones), so they listen on loopback whatever the
// host. Checked by the addresses the servers are bound to: this test connects to loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ host: '0.0.0.0' });
});
afterAll(() => runtime.stop());

describe('a runtime started with host 0.0.0.0', () => {
  it('binds the service port to every interface and every stand-in to loopback only', () => {
    expect(runtime.bound.api.address).toBe('0.0.0.0');
    const standIns = Object.entries(runtime.bound).filter(([name]) => name !== 'api');
    expect(standIns.map(([name]) => name).sort()).toEqual([
      'apigateway',
      'dynamodb',
      'kms',
      'mailbox',
      'oidc',
      'pki',
      's3',
      'sqs',
      'tsa',
    ]);
    expect(Object.fromEntries(standIns.map(([name, bound]) => [name, bound.address]))).toEqual(
      Object.fromEntries(standIns.map(([name]) => [name, '127.0.0.1'])),
    );
    // The functions reach the stand-ins where they listen.
    for (const endpoint of Object.values(runtime.config.endpoints ?? {})) {
      expect(new URL(endpoint).hostname).toBe('127.0.0.1');
    }
    for (const tsa of runtime.config.timestamps?.tsas ?? [])
      expect(new URL(tsa.url).hostname).toBe('127.0.0.1');
  });

  it('serves through 127.0.0.1: a bundle is stored and queued, its email lands in the mailbox', async () => {
    expect(runtime.baseUrl).toBe(`http://127.0.0.1:${runtime.bound.api.port}`);
    const call = apiClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: aBundle({ label: 'Bound to every interface' }, await aPdfB64()),
    });
    expect(created.status).toBe(201);
    expect((await call('GET', '/rate_limit/')).status).toBe(200);
    await eventually(
      async () => (await (await fetch(`${runtime.baseUrl}/dev/mailbox`)).text()).includes('ann@example.com'),
      20_000,
      "the signer's email in the mailbox",
    );
  });
});
