// Which function the local runtime is running at a given moment: every invocation (an API
// function behind the gateway, the authorizer, a queue worker's batch, a scheduled run) runs in
// its own async scope, as each is its own Lambda invocation on AWS. What a caller observes on a
// shared client (the DynamoDB requests a bench or test counts) is then told apart by function,
// even while workers run beside the request that queued their jobs.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TInvocation {
  /** The Lambda's name, as in infra/bundling.ts (`bundles`, `notifications-worker`, …). */
  fn: string;
}

const scope = new AsyncLocalStorage<TInvocation>();

/** Told of every invocation that ends: which function, and how long it ran (ms). */
export type TInvocationObserver = (fn: string, ms: number) => void;
const observers = new Set<TInvocationObserver>();

/** Runs `work` as an invocation of `fn`; whatever it starts belongs to that invocation too. */
export function invoke<T>(fn: string, work: () => T): T {
  if (observers.size === 0) return scope.run({ fn }, work);
  const t0 = performance.now();
  const done = () => {
    const ms = performance.now() - t0;
    for (const o of observers) o(fn, ms);
  };
  const result = scope.run({ fn }, work);
  if (result instanceof Promise) return result.finally(done) as T;
  done();
  return result;
}

/** Observes invocations until the returned function is called (the bench's Lambda figures). */
export function observeInvocations(observer: TInvocationObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** The invocation the caller runs in, if any. */
export function currentInvocation(): TInvocation | undefined {
  return scope.getStore();
}
