// What one POST /bundles/ costs on DynamoDB, counted on the client the local runtime's functions
// share, by the function that sent each request: the bundles function's own reads and writes for
// two signers and one document stay within 15 requests (two of them make sure its signers'
// Persons were not erased meanwhile: docs/personal-data.md), and the bundle item is written once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { dbRecorder, onItem } from '../helpers/db-recorder';
import { apiClient, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let recorder: ReturnType<typeof dbRecorder>;
let b64: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  recorder = dbRecorder(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

async function createCost(label: string) {
  let id = '';
  const commands = await recorder.during(async () => {
    const res = await call('POST', '/bundles/', { json: aBundle({ label }, b64) });
    expect(res.status, res.text).toBe(201);
    id = res.body.id;
    await runtime.workers.outboxRelay.idle();
  });
  const own = commands.filter((c) => c.fn === 'bundles');
  const bundleWrites = onItem(own, bundleKeys.item(runtime.demo.accountId, id)).filter((c) =>
    WRITES.has(c.command),
  );
  return { commands, own, bundleWrites };
}

describe('POST /bundles/ (two signers, one document)', () => {
  it('sends at most 15 DynamoDB requests, whether its signers are new Persons or known ones', async () => {
    const first = await createCost('New signers');
    const again = await createCost('Known signers');
    for (const { own } of [first, again]) {
      expect(own.length, JSON.stringify(own)).toBeGreaterThan(0);
      expect(own.length, JSON.stringify(own)).toBeLessThanOrEqual(15);
      // One read of the account, consistent, serves the create and its document's key.
      expect(
        own.filter((c) => c.command === 'GetItem' && c.key?.sk === 'ACCOUNT').map((c) => c.consistent),
      ).toEqual([true]);
    }
    // The signers were linked to Persons: known ones are updated in place, not read twice.
    expect(
      again.own.filter((c) => c.command === 'GetItem' && String(c.key?.sk).startsWith('PERSON#')),
    ).toEqual([]);
  });

  it('writes the bundle item once: its outbox is the relay’s to publish and clear', async () => {
    const { commands, bundleWrites } = await createCost('One write');
    expect(bundleWrites.map((c) => c.command)).toEqual(['PutItem']);
    const [put] = bundleWrites;
    // The relay cleared it, from the table's stream.
    const cleared = onItem(
      commands.filter((c) => c.fn === 'outbox-relay'),
      put!.key as { pk: string; sk: string },
    ).filter((c) => c.command === 'UpdateItem');
    expect(cleared).toHaveLength(1);
  });
});
