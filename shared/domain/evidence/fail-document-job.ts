import { SYSTEM } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import type { TBundleError } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { isBundleComplete } from '../bundles/lifecycle/status';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { TimestampUnavailableError, ValidationDataUnavailableError } from '../errors';
import type { TDocumentJob } from '../outbox/jobs/document-jobs';
import { EvidenceInputError, type TEvidenceDeps } from './evidence-deps';

/** What the sender reads on the bundle: our own code and words, never a provider's message. */
export function bundleErrorOf(err: unknown, attempts: number): TBundleError {
  if (err instanceof EvidenceInputError) return { code: err.code, message: err.message };
  if (err instanceof TimestampUnavailableError) {
    // The reasons are the timestamp client's own words per configured URL (never a credential).
    const why = err.failures.map((f) => `${f.url}: ${f.reason}`).join('; ');
    return {
      code: 'timestamp_unavailable',
      message: `The final documents could not be sealed: no timestamp authority gave a valid timestamp (${attempts} attempt(s))${why ? `. ${why}` : ''}.`,
    };
  }
  if (err instanceof ValidationDataUnavailableError) {
    // Certificate subjects and the fetcher's words about public URLs: nothing secret.
    const why = err.failures.map((f) => `${f.certificate}: ${f.reason}`).join('; ');
    return {
      code: 'validation_data_unavailable',
      message: `The final documents could not be sealed: the seal's certificates could not be shown valid (${attempts} attempt(s)). ${why}.`,
    };
  }
  return {
    code: 'evidence_failed',
    message: `The final documents could not be produced (${(err as Error).name || 'Error'}; ${attempts} attempt(s)).`,
  };
}

/** The codes of errors a document job puts on its bundle: they name the final documents' job. */
const DOCUMENT_JOB_ERROR_CODES = new Set([
  'evidence_failed',
  'timestamp_unavailable',
  'validation_data_unavailable',
]);

/** The bundle's errors without those of its final-documents job: once the documents are ready, they are past. */
export const withoutDocumentJobErrors = (errors: TBundleError[]) =>
  errors.filter((e) => !DOCUMENT_JOB_ERROR_CODES.has(e.code));

/** The error on the bundle's `errors`, replacing an earlier one of the same code (one per cause). */
const withError = (errors: TBundleError[], error: TBundleError) => [
  ...errors.filter((e) => e.code !== error.code),
  error,
];

/**
 * A final-documents job that failed and will run again: while it waits, the bundle says why (an
 * `ed` event with the reason, and the reason on `errors` until the documents are ready), so a
 * timestamp authority that is down shows on the bundle at once, not only after the last attempt.
 */
export async function noteDocumentJobRetry(
  deps: Pick<TEvidenceDeps, 'bundles' | 'clock'>,
  job: TDocumentJob,
  error: TBundleError,
): Promise<void> {
  if (job.type !== 'final') return;
  const at = deps.clock.now().toISOString();
  await changeBundle(deps, job.accountId, job.bundleId, (b) =>
    b.docsReady || !isBundleComplete(b.status)
      ? b
      : {
          ...b,
          errors: withError(b.errors, error),
          events: [...b.events, event('evidenceDelayed', at, SYSTEM, undefined, error.message)],
        },
  );
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
    lifecycle.fail(b, at, error, withError(b.errors, error)),
  );
}
