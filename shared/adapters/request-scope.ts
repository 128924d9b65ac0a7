// What one request (one invocation of a function) has read already, so that two parts of it that
// need the same record do not each read it: the use case that read the account and the documents
// bucket asking for the account's key, say. Kept for the request alone and dropped with it, so
// nothing read here outlives the request that read it (a key destroyed takes effect at the next).
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `work` as one request: what it notes is kept until it ends, and seen by it alone. */
export function inRequestScope<T>(work: () => T): T {
  return scope.run(new Map(), work);
}

/**
 * Notes `value` (a read under way or done) as what this request read under `key`; outside a
 * request it is not kept. A read that fails is forgotten, so the next asks again.
 */
export function noteRead<T>(key: string, value: Promise<T>): Promise<T> {
  const reads = scope.getStore();
  if (!reads) return value;
  reads.set(key, value);
  value.catch(() => {
    if (reads.get(key) === value) reads.delete(key);
  });
  return value;
}

/** What this request read under `key` already, else `read()`, noted for the rest of it. */
export function readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
  const noted = scope.getStore()?.get(key) as Promise<T> | undefined;
  return noted ?? noteRead(key, read());
}
