// Two copies of one export job (SQS delivers at least once) meeting on the export record: each
// state change is one conditional write, so one copy builds the archive and the other stops.
// The stores are in memory; the conditions are the ones the DynamoDB store writes.
import { describe, expect, it } from 'vitest';
import { tarGzArchiver } from '#shared/adapters/archive/archiver';
import { ConcurrentUpdateError } from '#shared/domain/errors';
import { buildExport, type TBuildExportDeps } from '#shared/domain/exports/build-export';
import type { TExport } from '#shared/domain/exports/export';

function deps(): { deps: TBuildExportDeps; puts: string[]; record: () => TExport | undefined } {
  let stored: TExport | undefined = {
    id: 'E1',
    accountId: 'A1',
    status: 'queued',
    created: '2026-11-27T10:00:00.000Z',
    requestedBy: { type: 'operator' },
    progress: { done: 0, total: 0 },
    leaseUntil: '2026-11-27T11:00:00.000Z',
    version: 1,
  };
  const puts: string[] = [];
  const pdf = Buffer.from('%PDF-1.7 a document');
  const tick = () => new Promise((r) => setTimeout(r, 1));
  return {
    puts,
    record: () => stored,
    deps: {
      exports: {
        get: async () => stored && structuredClone(stored),
        start: async () => false,
        async save(next) {
          await tick();
          if (stored?.version !== next.version - 1) throw new ConcurrentUpdateError();
          stored = structuredClone(next);
        },
      },
      records: {
        read: async () => ({ records: [{ pk: 'ACCOUNT#A1', sk: 'ACCOUNT', id: 'A1' }], bundleIds: [] }),
        stored: async () => [],
        putIfAbsent: async () => true,
      },
      streams: {
        read: async () => ({ size: pdf.length, body: [pdf] as unknown as AsyncIterable<Uint8Array> }),
        async write(key, body) {
          for await (const _ of body);
          puts.push(key);
        },
      },
      lister: {
        list: async (p) => (p === 'accounts/A1/' ? ['accounts/A1/bundles/B1/originals/a.pdf'] : []),
        exists: async () => false,
      },
      bundles: { get: async () => undefined, documents: async () => [] },
      evidence: { get: async () => undefined },
      archiver: tarGzArchiver,
      clock: { now: () => new Date('2026-11-27T10:00:01.000Z') },
    },
  };
}

describe('building an export', () => {
  it('makes one archive when two copies of its job run at once; the other stops', async () => {
    const { deps: d, puts, record } = deps();
    const outcomes = await Promise.all([buildExport(d, 'A1', 'E1'), buildExport(d, 'A1', 'E1')]);
    expect(puts).toEqual(['exports/A1/E1.tar.gz']);
    expect(outcomes.filter((o) => o?.status === 'done')).toHaveLength(1);
    expect(record()).toMatchObject({ status: 'done', progress: { done: 1, total: 1 } });
    // A third copy, after the fact, finds it done and writes nothing.
    expect(await buildExport(d, 'A1', 'E1')).toMatchObject({ status: 'done' });
    expect(puts).toHaveLength(1);
  });
});
