import type { TSealReader } from '#shared/domain/ports/evidence';
import { runBudgeted } from '../untrusted/run-budgeted';

/**
 * Reads seals from the file alone: no identity, no renderer (the API and the public check use it).
 * `check` is the offline verifier esign-verify runs, so the service and the CLI answer alike; it
 * is given no trust list (the file's roots are shown, not judged) and never goes online.
 *
 * Anyone may send any file to the public check, so both run in the untrusted-files worker, within
 * its budget (untrusted/run-budgeted.ts): a file past the readers' caps or the budget throws
 * TooComplexError. The two are one task, asked once for the same bytes (the check asks both at once).
 */
export function createSealReader(): TSealReader {
  const runs = new WeakMap<Uint8Array, ReturnType<typeof runBudgeted<'sealAndChecks'>>>();
  const both = (pdf: Uint8Array) => {
    let run = runs.get(pdf);
    if (!run) {
      run = runBudgeted('sealAndChecks', [pdf], 'check');
      runs.set(pdf, run);
    }
    return run;
  };
  return {
    read: async (pdf) => (await both(pdf)).seal,
    check: async (pdf) => (await both(pdf)).checks,
  };
}
