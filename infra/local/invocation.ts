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

/** Runs `work` as an invocation of `fn`; whatever it starts belongs to that invocation too. */
export function invoke<T>(fn: string, work: () => T): T {
  return scope.run({ fn }, work);
}

/** The invocation the caller runs in, if any. */
export function currentInvocation(): TInvocation | undefined {
  return scope.getStore();
}
