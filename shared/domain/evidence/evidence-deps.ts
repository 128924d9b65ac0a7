import { ServiceError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TEvidencePdf, TEvidenceStore } from '../ports/evidence';
import type { TBlobStore } from '../ports/files';
import type { TSigningRecordStore } from '../ports/signing';
import type { TClock, TIds } from '../ports/system';

/** What the document worker's use cases need. */
export type TEvidenceDeps = {
  /** Publishing: the `dk` and `fa` events it appends fire their webhooks and messages. */
  bundles: TBundleStore;
  records: TSigningRecordStore;
  blobs: TBlobStore;
  evidence: TEvidenceStore;
  pdf: TEvidencePdf;
  clock: TClock;
  ids: TIds;
};

/** What became of a job: done (nothing left to do), or to be tried again after `seconds`. */
export type TJobOutcome = { kind: 'done'; detail: string } | { kind: 'wait'; seconds: number };

/**
 * A fault of the bundle's inputs that no retry can mend (a stored original that is not the one
 * uploaded, an audit trail that does not verify): the job fails at once, with `code` and a
 * message for the sender on the bundle.
 */
export class EvidenceInputError extends ServiceError {
  override name = 'EvidenceInputError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * No timestamp authority gave a valid timestamp for a seal: `failures` says why each did not, one
 * per URL in the order tried (never a credential). A seal is not written without its timestamp, so
 * the document job is retried, and after its last attempt the bundle fails.
 */
export class TimestampUnavailableError extends ServiceError {
  override name = 'TimestampUnavailableError';
  constructor(readonly failures: { url: string; reason: string }[]) {
    super(
      failures.length === 0
        ? 'No timestamp authority is configured.'
        : `No timestamp authority gave a valid timestamp: ${failures.map((f) => `${f.url}: ${f.reason}`).join('; ')}`,
    );
  }
}

/**
 * The validation data of a seal (PAdES B-LT) could not be had: a certificate of its chains, or of
 * its timestamp authority's, is revoked, or its issuer, OCSP answer or CRL could not be fetched or
 * did not check out. `failures` names each certificate (its subject) and why. Like a missing
 * timestamp, the job is retried and the bundle shows the reason.
 */
export class ValidationDataUnavailableError extends ServiceError {
  override name = 'ValidationDataUnavailableError';
  constructor(readonly failures: { certificate: string; reason: string }[]) {
    super(
      `The seal's certificates could not be shown valid: ${failures.map((f) => `${f.certificate}: ${f.reason}`).join('; ')}`,
    );
  }
}
