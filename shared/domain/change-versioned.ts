import type { TClock } from './ports/system';
import { retryOnConflict } from './retry-on-conflict';

/** A record written with optimistic concurrency: the version it was saved at, and when. */
interface TVersioned {
  version: number;
  updated: string;
}

/**
 * The read-modify-write of one versioned record: `change` makes the next record from the one
 * read, which is saved stamped with the clock's time and the next version, conditional on the
 * version read; when another write won in between, all of it again (retryOnConflict). Answers
 * both records, for what follows the change elsewhere.
 */
export function changeVersioned<T extends TVersioned>(
  clock: TClock,
  record: {
    read: () => Promise<T>;
    change: (current: T) => T;
    save: (next: T, current: T) => Promise<void>;
  },
): Promise<{ current: T; next: T }> {
  return retryOnConflict(async () => {
    const current = await record.read();
    const next = {
      ...record.change(current),
      updated: clock.now().toISOString(),
      version: current.version + 1,
    };
    await record.save(next, current);
    return { current, next };
  });
}
