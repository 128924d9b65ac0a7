// Until when erasure reports an ended bundle's documents are kept: the retention policy the bundle
// carries, its legal hold and what it already deleted (shared/domain/bundles/retention.ts).
import { describe, expect, it } from 'vitest';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { documentsKeptUntil as keptUntil } from '#shared/domain/bundles/retention';
import { aBundleItem } from '../helpers/bundle-items';

const completed = '2026-11-01T00:00:00.000Z';
const ended = (retention: TBundle['retention']): TBundle =>
  aBundleItem({ status: 'co', docsReady: true, completedAt: completed, retention });

describe('keptUntil', () => {
  it('answers when the last part falls due, or was deleted', () => {
    const policy = { originals: 30, finals: 365, images: 7 };
    expect(keptUntil(ended({ policy }))).toBe('2027-11-01T00:00:00.000Z');
    const deleted = { finals: '2026-11-20T00:00:00.000Z' };
    expect(keptUntil(ended({ policy: { originals: 30, finals: 1, images: 7 }, deleted }))).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('answers null while any part is kept for ever: no policy for it, a hold, not yet ended', () => {
    expect(keptUntil(ended(undefined))).toBeNull();
    expect(keptUntil(ended({ policy: { originals: 30, images: 7 } }))).toBeNull();
    const hold = { at: completed, actor: { type: 'operator' as const } };
    expect(keptUntil(ended({ policy: { originals: 1, finals: 1, images: 1 }, hold }))).toBeNull();
    const open = aBundleItem({ status: 'se', retention: { policy: { originals: 1, finals: 1, images: 1 } } });
    expect(keptUntil(open)).toBeNull();
  });
});
