// A create under an Idempotency-Key, for items with their own conditional put: the new item's id
// is derived from the request (TRequest.retrySeed), so a second run of the same request (its
// first cut off by a crash or a timeout) answers the item the first made instead of a second one.
import { ConcurrentUpdateError } from './errors';

/**
 * `create` makes and writes the item with id `derivedId` (a put that fails if it exists). A run
 * that finds the item answers it; of two runs at once, the one whose put lost answers the other's.
 * Without a derived id, `create` just runs.
 */
export async function createOnce<T>(
  derivedId: string | undefined,
  find: (id: string) => Promise<T | undefined>,
  create: () => Promise<T>,
): Promise<T> {
  if (derivedId === undefined) return create();
  const before = await find(derivedId);
  if (before) return before;
  try {
    return await create();
  } catch (err) {
    if (!(err instanceof ConcurrentUpdateError)) throw err;
    const first = await find(derivedId);
    if (first) return first;
    throw err;
  }
}
