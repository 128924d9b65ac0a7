// What loads on demand (pages, payment providers, the SMS sender): made once for every caller,
// and made again after a failure rather than failing for good.
import { describe, expect, it } from 'vitest';
import { onFirstUse } from '#shared/adapters/on-first-use';

describe('onFirstUse', () => {
  it('makes nothing until asked, then once for callers at the same moment and after', async () => {
    let made = 0;
    const get = onFirstUse(async () => ++made);
    expect(made).toBe(0);
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    expect(await get()).toBe(1);
    expect(made).toBe(1);
  });

  it('tries again after a failure', async () => {
    let tries = 0;
    const get = onFirstUse(async () => {
      tries += 1;
      if (tries === 1) throw new Error('not yet');
      return 'ready';
    });
    await expect(get()).rejects.toThrow('not yet');
    expect(await get()).toBe('ready');
    expect(await get()).toBe('ready');
    expect(tries).toBe(2);
  });
});
