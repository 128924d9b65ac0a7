import { ConcurrentUpdateError } from './errors';

/**
 * Read-modify-write with optimistic concurrency: when another request changed the record
 * between our read and our conditional write, read again and re-apply the change.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ConcurrentUpdateError) || i >= attempts) throw err;
    }
  }
}
