import { ConcurrentUpdateError } from './errors';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Read-modify-write with optimistic concurrency: when another request changed the record
 * between our read and our conditional write, read again and re-apply the change. A random,
 * growing pause keeps racing writers from colliding again in lockstep; after `attempts` the
 * caller gets a 409 and may retry.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, attempts = 10): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ConcurrentUpdateError) || i >= attempts) throw err;
      await pause(Math.random() * 10 * i);
    }
  }
}
