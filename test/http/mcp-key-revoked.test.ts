// A revoked API key at /mcp: the MCP function asks the API about the key on every request, so the
// authorizer's cached answer is the only one, and /mcp stops answering (initialize, tools/list,
// tool calls alike) at the moment the API itself refuses the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;

beforeAll(async () => {
  // The authorizer keeps its answer a second here (60 s on AWS), so the test need not wait long.
  runtime = await startTestRuntime({ authorizerTtlSeconds: 1 });
});
afterAll(() => runtime?.stop());

/** One JSON-RPC request of an MCP client to /mcp with `key`. */
const mcp = (key: string, method: string, params: object = {}) =>
  fetch(`${runtime.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });

const initialize = (key: string) =>
  mcp(key, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'revoked-key-test', version: '1.0.0' },
  });

describe('/mcp with a key revoked', () => {
  it('refuses initialize and tools/list as soon as the API refuses the key', async () => {
    const account = await runtime.seedAccount('Revoked', 'revoked@example.com');
    const keys = createApiKeyStore(runtime.db, runtime.config.tableName);
    // In use: every kind of request answers, so whatever /mcp keeps of the key is fresh.
    expect((await initialize(account.apiKey)).status).toBe(200);
    expect((await mcp(account.apiKey, 'tools/list')).status).toBe(200);
    const listed = await mcp(account.apiKey, 'tools/call', { name: 'list_bundles', arguments: {} });
    expect(listed.status).toBe(200);

    const [key] = await keys.listForAccount(account.accountId);
    await keys.revoke(account.accountId, key!.keyId, new Date());
    const call = apiClient(runtime, account.apiKey);
    await eventually(
      async () => (await call('GET', '/rate_limit/')).status === 401,
      20_000,
      'the API to refuse',
    );

    for (const [what, res] of [
      ['initialize', await initialize(account.apiKey)],
      ['tools/list', await mcp(account.apiKey, 'tools/list')],
      ['tools/call', await mcp(account.apiKey, 'tools/call', { name: 'list_bundles', arguments: {} })],
    ] as const) {
      const body = await res.json();
      expect([what, res.status], JSON.stringify(body)).toEqual([what, 401]);
      expect(isErrorBody(body)).toBe(true);
    }
  });
});
