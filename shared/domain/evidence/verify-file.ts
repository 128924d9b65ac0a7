import * as z from 'zod';
import type { TVerifyReport } from '#shared/verify/report';
import type { TPacket } from '../bundles/bundle';
import { deletedAt } from '../bundles/retention';
import { parseInput } from '../parse-input';
import type { TBundleStore } from '../ports/bundles';
import type { TEvidenceStore, TSealReader } from '../ports/evidence';
import { auditTrailIntact } from './audit-status';
import type { TSealedKind } from './evidence-files';
import { sha256Hex } from './read-original';
import { signerSummary } from './signer-summary';

export const ZByHash = z.object({
  sha256: z
    .string('Send the file, or its SHA-256 as 64 hexadecimal characters.')
    .trim()
    .regex(/^[0-9A-Fa-f]{64}$/, 'A SHA-256 is 64 hexadecimal characters.')
    .transform((s) => s.toLowerCase()),
});

export interface TVerifyAnswer {
  match: boolean;
  kind: TSealedKind | null;
  sha256: string;
  bundle: { id: string; label: string; status: string; completed_at: string | null } | null;
  doc_key: string | null;
  packet_id: string | null;
  issued_at: string | null;
  signers: {
    packet_id: string;
    key: string;
    name: string;
    email: string | null;
    phone: string | null;
    status: string;
    completed_at: string | null;
  }[];
  audit_chain_intact: boolean | null;
  sealed: boolean;
  /**
   * When the account's retention policy deleted this file: it was sealed by this service, and its
   * SHA-256, bundle and audit chain are kept, but the content is gone. Null while it is kept.
   */
  content_deleted_at: string | null;
  /** With a file: every check esign-verify makes of it, from the file alone; null for a hash or a non-PDF. */
  checks: TVerifyReport | null;
}

const signerOf = (p: TPacket): TVerifyAnswer['signers'][number] => signerSummary(p);

/**
 * POST /verify/: is this a final document or Certificate of Evidence this service sealed for the
 * caller's account, and does the record behind it still hold? Takes the file (its SHA-256 is
 * looked up, and its seal is checked from the file itself) or only a SHA-256. Files of other
 * accounts answer like unknown files: no match.
 * `sealed`: with a file, its signature holds over the whole file; with a hash, that the hash is
 * of a file this service sealed (true exactly when it matches). `checks`: with a file, the report of
 * the offline verifier (shared/verify), the same esign-verify prints.
 */
export async function verifyFile(
  deps: { bundles: TBundleStore; evidence: TEvidenceStore; seals: TSealReader },
  accountId: string,
  input: { bytes: Uint8Array } | { body: unknown },
): Promise<TVerifyAnswer> {
  const sha256 = 'bytes' in input ? sha256Hex(input.bytes) : parseInput(ZByHash, input.body).sha256;
  const entry = await deps.evidence.getHash(sha256, accountId);
  const [seal, checks] =
    'bytes' in input
      ? await Promise.all([deps.seals.read(input.bytes), deps.seals.check(input.bytes)])
      : [undefined, null];
  const sealed = 'bytes' in input ? Boolean(seal?.valid && seal.coversWholeFile) : Boolean(entry);
  const b = entry ? await deps.bundles.get(accountId, entry.bundleId) : undefined;
  if (!entry || !b) {
    return {
      match: false,
      kind: null,
      sha256,
      bundle: null,
      doc_key: null,
      packet_id: null,
      issued_at: null,
      signers: [],
      audit_chain_intact: null,
      sealed,
      content_deleted_at: null,
      checks,
    };
  }
  const packets = entry.kind === 'certificate' ? b.packets.filter((p) => p.id === entry.packetId) : b.packets;
  return {
    match: true,
    kind: entry.kind,
    sha256,
    bundle: { id: b.id, label: b.label, status: b.status, completed_at: b.completedAt ?? null },
    doc_key: entry.docKey ?? null,
    packet_id: entry.packetId ?? null,
    issued_at: entry.issuedAt,
    signers: packets.map(signerOf),
    audit_chain_intact: await auditTrailIntact(deps, b, entry),
    sealed,
    // Final documents and certificates are the one part of the policy (bundles/retention.ts).
    content_deleted_at: deletedAt(b, 'finals') ?? null,
    checks,
  };
}
