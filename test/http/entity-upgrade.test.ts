// Items an earlier version of the code stored (test/fixtures/entities/) served and changed by
// today's code through the API: a bundle written as version 1 wrote it, with its document and
// packet, is read, listed by its tag and cancelled like one made today.
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { readFixtures } from '../helpers/entity-fixtures';
import { later } from '../helpers/entity-samples';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});

/** The version 1 fixture items of these entities, moved into this test's account under a new bundle id. */
async function storeAsWritten(entities: string[], ids: Record<string, string>): Promise<void> {
  const fixtures = readFixtures().filter((f) => entities.includes(f.entity) && f.entityVersion === 1);
  expect(fixtures.map((f) => f.entity).sort()).toEqual([...entities].sort());
  for (const f of fixtures) {
    // Only whole ids are replaced (A1 in ACCOUNT#A1 or accounts/A1/, never inside another word).
    // The samples' "later" (their expiry) moves to the future: the bundle is still open today.
    const text = JSON.stringify(f.item)
      .replace(/(?<![A-Za-z0-9])(A1|B1)(?![A-Za-z0-9])/g, (id) => ids[id]!)
      .replaceAll(later, '2099-01-01T00:00:00.000Z');
    await runtime.db.send(new PutCommand({ TableName: runtime.config.tableName, Item: JSON.parse(text) }));
  }
}

describe('items stored by earlier versions', () => {
  it('reads, lists by tag and cancels a bundle version 1 stored', async () => {
    // A bundle id is ten letters and digits, as the service makes them.
    const bundleId = randomUUID().replace(/-/g, '').slice(0, 10);
    await storeAsWritten(['bundle', 'bundle-document', 'packet-ref', 'bundle-term'], {
      A1: runtime.demo.accountId,
      B1: bundleId,
    });

    const read = await call('GET', `/bundles/${bundleId}/`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id: bundleId, label: 'Lease', status: 'se' });

    const listed = await call('GET', '/bundles/?tag=lease');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as { id: string }[]).map((b) => b.id)).toContain(bundleId);

    const cancelled = await call('PUT', `/bundles/${bundleId}/cancel/`);
    expect(cancelled.status, cancelled.text).toBe(200);
    const after = await call('GET', `/bundles/${bundleId}/`);
    expect(after.body).toMatchObject({ id: bundleId, status: 'ca' });
  });
});
