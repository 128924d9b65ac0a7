import { describe, expect, it } from 'vitest';
import { CHAIN_START, verifyChain, withChain } from '#shared/domain/bundles/audit-chain';
import type { TBundle, TBundleEvent } from '#shared/domain/bundles/bundle';

const ev = (kind: string, n: number): TBundleEvent => ({
  kind,
  description: `${kind} ${n}`,
  timestamp: `2026-11-22T08:00:${String(n).padStart(2, '0')}.000Z`,
});
const bundle = (events: TBundleEvent[], chainHead?: string) => ({ events, chainHead }) as unknown as TBundle;

function chained(count: number): TBundle {
  let b = withChain(undefined, bundle([ev('cr', 0)]));
  for (let i = 1; i < count; i++) b = withChain(b, { ...b, events: [...b.events, ev('up', i)] });
  return b;
}

describe('the audit hash chain', () => {
  it('links every event to the one before and keeps the head on the bundle', () => {
    const b = chained(5);
    expect(b.events[0]!.prevHash).toBe(CHAIN_START);
    expect(new Set(b.events.map((e) => e.prevHash)).size).toBe(5);
    expect(verifyChain(b.events, b.chainHead)).toEqual({ intact: true, head: b.chainHead });
  });

  it('finds a changed, removed or reordered event, and a head that does not match', () => {
    const b = chained(5);
    const changed = b.events.map((e, i) => (i === 2 ? { ...e, description: 'something else' } : e));
    expect(verifyChain(changed, b.chainHead)).toMatchObject({ intact: false, brokenAt: 3 });
    const removed = b.events.filter((_, i) => i !== 1);
    expect(verifyChain(removed, b.chainHead)).toMatchObject({ intact: false, brokenAt: 1 });
    const swapped = [b.events[0]!, b.events[2]!, b.events[1]!, b.events[3]!, b.events[4]!];
    expect(verifyChain(swapped, b.chainHead).intact).toBe(false);
    const truncated = b.events.slice(0, 4);
    expect(verifyChain(truncated, b.chainHead)).toMatchObject({ intact: false, brokenAt: 4 });
  });
});
