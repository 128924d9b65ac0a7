import type { TBundleError } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { event } from '../bundles/send-bundle';
import type { TDocumentJob } from '../webhooks/outbox';
import { EvidenceInputError, type TEvidenceDeps, TimestampUnavailableError } from './evidence-deps';

/** What the sender reads on the bundle: our own code and words, never a provider's message. */
export function bundleErrorOf(err: unknown, attempts: number): TBundleError {
  if (err instanceof EvidenceInputError) return { code: err.code, message: err.message };
  if (err instanceof TimestampUnavailableError) {
    return {
      code: 'timestamp_unavailable',
      message: `The final documents could not be sealed: no timestamp authority gave a valid timestamp (${attempts} attempt(s)).`,
    };
  }
  return {
    code: 'evidence_failed',
    message: `The final documents could not be produced (${(err as Error).name || 'Error'}; ${attempts} attempt(s)).`,
  };
}

/**
 * A document job that will not be tried again. A final job's bundle becomes `fa` with the error
 * on `errors` and a `fa` event (the bundle_error webhook), unless its documents are ready after
 * all; an interim job only records that its files failed (the bundle goes on).
 */
export async function failDocumentJob(
  deps: Pick<TEvidenceDeps, 'bundles' | 'evidence' | 'clock'>,
  job: TDocumentJob,
  error: TBundleError,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  if (job.type === 'interim') {
    await deps.evidence.saveInterim(job.accountId, job.bundleId, {
      seq: job.seq,
      status: 'failed',
      at,
      files: [],
    });
    return;
  }
  await changeBundle(deps, job.accountId, job.bundleId, (b) =>
    b.docsReady || b.status !== 'co'
      ? b
      : {
          ...b,
          status: 'fa',
          errors: [...b.errors, error],
          events: [...b.events, event('failed', at, undefined, error.message)],
        },
  );
}
