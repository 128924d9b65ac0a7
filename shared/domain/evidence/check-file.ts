import type { TVerifyReport } from '#shared/verify/report';
import { deletedAt } from '../bundles/retention';
import type { TBundleStore } from '../ports/bundles';
import type { TEvidenceStore, TSealReader } from '../ports/evidence';
import { auditTrailIntact } from './audit-status';
import type { TSealedKind } from './evidence-files';
import { sha256Hex } from './read-original';

export interface TPublicCheck {
  sha256: string;
  /** This exact file is one this service sealed. */
  known: boolean;
  kind: TSealedKind | null;
  /** The audit trail behind a known file still verifies; null for an unknown file. */
  audit_trail_intact: boolean | null;
  /** The file carries a signature that holds over all of it. */
  sealed: boolean;
  /** When the account's retention policy deleted a known file's content; null while kept. */
  content_deleted_at: string | null;
  /** What the file's own signature says; null when it has none. */
  seal: {
    valid: boolean;
    covers_whole_file: boolean;
    signed_by: string | null;
    signed_at: string | null;
    reason: string | null;
    location: string | null;
    problem: string | null;
  } | null;
  /** Every check esign-verify makes of the file (all from the file itself); null when it is no PDF. */
  checks: TVerifyReport | null;
}

/**
 * The public check (`/verify`, no API key): anyone holding a file learns whether this service
 * sealed exactly this file and what its seal says — only what is in the file itself (the
 * signature's certificate name, time and reason) and yes/no answers. Never the account, the
 * bundle, the signers or anything else stored about it: the hash entry is read, not shown.
 */
export async function checkFile(
  deps: { bundles: TBundleStore; evidence: TEvidenceStore; seals: TSealReader },
  bytes: Uint8Array,
): Promise<TPublicCheck> {
  const sha256 = sha256Hex(bytes);
  const [entry, seal, checks] = await Promise.all([
    deps.evidence.findHash(sha256),
    deps.seals.read(bytes),
    deps.seals.check(bytes),
  ]);
  const b = entry ? await deps.bundles.get(entry.accountId, entry.bundleId) : undefined;
  const known = Boolean(entry && b);
  return {
    sha256,
    known,
    kind: known ? entry!.kind : null,
    audit_trail_intact: known ? await auditTrailIntact(deps, b!, entry!) : null,
    sealed: Boolean(seal?.valid && seal.coversWholeFile),
    content_deleted_at: known ? (deletedAt(b!, 'finals') ?? null) : null,
    seal: seal
      ? {
          valid: seal.valid,
          covers_whole_file: seal.coversWholeFile,
          signed_by: seal.signerName ?? null,
          signed_at: seal.signedAt ?? null,
          reason: seal.reason ?? null,
          location: seal.location ?? null,
          problem: seal.problem ?? null,
        }
      : null,
    checks,
  };
}
