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
