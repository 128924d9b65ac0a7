// Finishing and saving values read the documents and the other signers' records side by side:
// neither read needs the other, and one after the other they made a signer wait a round trip
// more. Observed as the reads in flight at once on the runtime's DynamoDB client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { benchFields, benchValues } from '../../bench/signing';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
/** The most Query commands of the signing function in flight at once, while `watching`. */
const queries = { watching: false, inFlight: 0, most: 0 };
beforeAll(async () => {
  runtime = await startTestRuntime();
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const counted =
        queries.watching &&
        context.commandName === 'QueryCommand' &&
        currentInvocation()?.fn === 'public-pages';
      if (!counted) return next(args);
      queries.inFlight++;
      queries.most = Math.max(queries.most, queries.inFlight);
      try {
        return await next(args);
      } finally {
        queries.inFlight--;
      }
    },
    { step: 'initialize', name: 'testQueriesInFlight' },
  );
});
afterAll(() => runtime.stop());

async function mostQueriesAtOnce(run: () => Promise<void>): Promise<number> {
  Object.assign(queries, { watching: true, inFlight: 0, most: 0 });
  try {
    await run();
    return queries.most;
  } finally {
    queries.watching = false;
  }
}

describe('a signer saving and finishing', () => {
  it('read the documents and the other records side by side', async () => {
    const call = apiClient(runtime);
    const sign = signerClient(runtime);
    const fields = benchFields('ann').slice(0, 4);
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Side by side',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'doc', file_b64: await aPdfB64(), fields }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const session = await openSession(sign, call, created.body.packets[0].id);
    const saved = await mostQueriesAtOnce(async () => {
      expect((await sign('PUT', '/values', session, { values: benchValues('doc', fields) })).status).toBe(
        200,
      );
    });
    expect(saved).toBe(2);
    const finished = await mostQueriesAtOnce(async () => {
      expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    });
    expect(finished).toBe(2);
  });
});
