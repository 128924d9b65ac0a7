import { describe, expect, it } from 'vitest';
import { keyDestructionBlocker } from '#shared/domain/bundles/account-documents-key';
import type { TBundle } from '#shared/domain/bundles/bundle';

const now = new Date('2026-11-28T12:00:00.000Z');
/** A bundle cancelled on `ended` under a policy of `days` for every part. */
const cancelled = (ended: string, days: number, hold = false) =>
  ({
    id: 'B1',
    status: 'ca',
    created: '2026-01-01T00:00:00.000Z',
    events: [{ kind: 'ca', timestamp: ended }],
    retention: {
      policy: { originals: days, finals: days, images: days },
      ...(hold ? { hold: { at: '2026-11-01T00:00:00.000Z', actor: { type: 'operator' } } } : {}),
    },
  }) as unknown as TBundle;

describe('keyDestructionBlocker', () => {
  it('names the bundle and the day its retention ends while it has not', () => {
    expect(keyDestructionBlocker(cancelled('2026-11-20T00:00:00.000Z', 30), now)).toBe(
      'Bundle B1 keeps its documents until 2026-12-20 by its retention policy: destroy the key after that date.',
    );
    expect(keyDestructionBlocker(cancelled('2026-10-01T00:00:00.000Z', 30), now)).toBeUndefined();
  });

  it('names a legal hold, whatever the retention says', () => {
    expect(keyDestructionBlocker(cancelled('2026-01-01T00:00:00.000Z', 0, true), now)).toMatch(
      /^Bundle B1 is under legal hold since 2026-11-01/,
    );
  });
});
