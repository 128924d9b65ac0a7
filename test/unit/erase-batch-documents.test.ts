// A bulk batch's own objects go with the originals of the last bundle it made: not before, and
// when the last two are deleted side by side, neither is left waiting for the other.
import { describe, expect, it } from 'vitest';
import type { TBulkBatch, TBulkRowResult } from '#shared/domain/bulk/bulk-batch';
import { eraseBatchDocumentsWhenDone } from '#shared/domain/bulk/erase-batch-documents';
import { sharedDocumentKey } from '#shared/domain/bundles/document-sharing';
import type { TBulkStore } from '#shared/domain/ports/bulk';

const SHA = 'ab'.repeat(32);
const documents = [{ blobKey: sharedDocumentKey('A1', 'b1', SHA), sha256: SHA }];
const now = new Date('2026-11-27T12:00:00Z');

/** The batch, its rows and the erased prefixes, in memory; writes conditional as the table's. */
function memory(rows: number) {
  let batch: TBulkBatch = {
    id: 'b1',
    accountId: 'A1',
    userId: 'U1',
    created: '2026-01-01T00:00:00Z',
    total: rows + 1,
    requestKey: 'accounts/A1/bulk/b1/request.json',
    completed: '2026-01-01T00:01:00Z',
  };
  let results: TBulkRowResult[] = [
    ...Array.from({ length: rows }, (_, row) => ({
      accountId: 'A1',
      batchId: 'b1',
      row,
      status: 'created' as const,
      bundleId: `B${row}`,
    })),
    { accountId: 'A1', batchId: 'b1', row: rows, status: 'failed' },
  ];
  let recorded = 0;
  const erased: string[] = [];
  const bulk = {
    get: async () => batch,
    rowResults: async () => results.map((r) => ({ ...r })),
    async markOriginalsErased(row: TBulkRowResult, at: string) {
      results = results.map((r) =>
        r.row === row.row && !r.originalsErased ? { ...r, originalsErased: at } : r,
      );
    },
    async markDocumentsDeleted(_: TBulkBatch, deleted: NonNullable<TBulkBatch['documentsDeleted']>) {
      if (batch.documentsDeleted) return false;
      batch = { ...batch, documentsDeleted: deleted };
      recorded += 1;
      return true;
    },
  } as unknown as TBulkStore;
  const eraser = {
    eraseAll: async (prefix: string) => {
      erased.push(prefix);
      return 3;
    },
  };
  const erase = (bundleId: string) =>
    eraseBatchDocumentsWhenDone({ bulk, eraser }, { accountId: 'A1', id: bundleId }, documents, now);
  return { erase, erased, batch: () => batch, recorded: () => recorded };
}

describe("a bulk batch's shared documents under retention", () => {
  it('stay until the last bundle the batch made has lost its originals, then go once', async () => {
    const m = memory(3);
    expect(await m.erase('B0')).toBeUndefined();
    expect(await m.erase('B1')).toBeUndefined();
    expect(m.erased).toEqual([]);
    // Two runs side by side on the last bundle: the objects go, and one of them records it.
    const [a, b] = await Promise.all([m.erase('B2'), m.erase('B2')]);
    expect([a, b].filter(Boolean).length).toBeGreaterThan(0);
    expect(m.erased[0]).toBe('accounts/A1/bulk/b1/');
    expect(m.recorded()).toBe(1);
    expect(m.batch().documentsDeleted).toEqual({ at: now.toISOString(), sha256: [SHA] });
    // Recorded: a later call has nothing to do.
    expect(await m.erase('B0')).toBeUndefined();
  });

  it('go when the last two bundles are deleted side by side, neither waiting on the other', async () => {
    const m = memory(2);
    await Promise.all([m.erase('B0'), m.erase('B1')]);
    expect(m.erased.length).toBeGreaterThan(0);
    expect(m.recorded()).toBe(1);
  });
});
