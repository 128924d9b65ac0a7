import { describe, expect, it } from 'vitest';
import { keptSigners } from '#shared/adapters/kept-signers';
import type { TSignerContext } from '#shared/domain/signing/signer-context';

const MINUTE = 60_000;
/** A context told apart by its record's version; nothing else of it matters here. */
const contextOf = (version: number) => ({ record: { version } }) as unknown as TSignerContext;

describe('what an instance keeps of a session’s signer', () => {
  const at = (ms: number) => ({ now: () => new Date(Date.UTC(2026, 10, 28) + ms) });

  it('gives a kept context once, and the newest kept for the session', () => {
    const kept = keptSigners<TSignerContext>(at(0));
    kept.keep('s1', contextOf(1));
    kept.keep('s1', contextOf(2));
    expect(kept.take('s1')?.record.version).toBe(2);
    expect(kept.take('s1')).toBeUndefined();
  });

  it('lets a context go when told, and after ten minutes', () => {
    let now = 0;
    const kept = keptSigners<TSignerContext>({ now: () => at(now).now() });
    kept.keep('s1', contextOf(1));
    kept.forget('s1');
    expect(kept.take('s1')).toBeUndefined();
    kept.keep('s2', contextOf(1));
    now = 10 * MINUTE - 1;
    expect(kept.take('s2')?.record.version).toBe(1);
    kept.keep('s3', contextOf(1));
    now += 10 * MINUTE;
    expect(kept.take('s3')).toBeUndefined();
  });

  it('keeps at most 100 sessions, forgetting the oldest first', () => {
    const kept = keptSigners<TSignerContext>(at(0));
    for (let i = 0; i <= 100; i++) kept.keep(`s${i}`, contextOf(i));
    expect(kept.take('s0')).toBeUndefined();
    expect(kept.take('s1')?.record.version).toBe(1);
    expect(kept.take('s100')?.record.version).toBe(100);
  });
});
