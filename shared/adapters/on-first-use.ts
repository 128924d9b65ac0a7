/**
 * `make` run by the first call, its promise shared by every call after it. A failure is not kept:
 * the next call tries again (a module that did not load, a secret not readable yet). What code
 * only some requests need is loaded this way, out of a function's cold start.
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
}
