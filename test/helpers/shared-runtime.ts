// One local runtime per test worker, shared by the test files of the `shared-runtime` vitest
// project (isolate: false keeps this module, and so the runtime, alive from file to file).
// Starting a runtime costs seconds of CPU; most HTTP tests only need one to talk to.
//
// Each file still gets an account of its own, named and addressed as the demo account is, so
// nothing a file lists or counts was made by another. A file that changes the runtime itself
// (its options, its clock, its workers, the stand-ins) or reads what all accounts share (the
// local mailbox, the data folder) starts its own with startTestRuntime() instead.
import { rmSync } from 'node:fs';
import type { TRuntime } from '#infra/local/runtime';
import { startTestRuntime } from './runtime';

let shared: Promise<TRuntime> | undefined;

function startShared(): Promise<TRuntime> {
  return startTestRuntime().then((runtime) => {
    // Nobody stops it: the worker's exit ends its servers; its in-memory data folder goes too.
    process.once('exit', () => rmSync(runtime.dataDir, { recursive: true, force: true }));
    return runtime;
  });
}

/** This worker's runtime, with a fresh demo account for the calling file; stop() leaves it running. */
export async function sharedTestRuntime(): Promise<TRuntime> {
  shared ??= startShared();
  const runtime = await shared;
  const demo = await runtime.seedAccount('Demo Account', 'demo@example.com');
  return { ...runtime, demo, stop: async () => undefined };
}
