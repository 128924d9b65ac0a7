import { ConflictError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TEvidenceStore } from '../ports/evidence';
import type { TBlobStore } from '../ports/files';
import type { TClock } from '../ports/system';
import { FILE_LINK_SECONDS } from './bundle-files';
import { findPacket } from './find-packet';
import { hasSigned } from './lifecycle/status';
import { assertKept } from './retention';

/**
 * The packet's Certificate of Evidence: a time-limited link and the SHA-256 of the file it
 * serves. It exists once the packet is complete and the document worker made it (with the
 * bundle's final documents); until then the answer is 409, as the spec says.
 */
export async function getCoe(
  deps: { bundles: TBundleStore; evidence: TEvidenceStore; blobs: TBlobStore; clock: TClock },
  accountId: string,
  packetId: string,
): Promise<{ file_url: string; expires: string; sha256: string }> {
  const { bundle, packet } = await findPacket(deps, accountId, packetId);
  if (!hasSigned(packet.status)) throw new ConflictError('The packet is not complete yet.');
  const record = await deps.evidence.get(accountId, bundle.id);
  const certificate = record?.issuedAt
    ? record.certificates.find((c) => c.packetId === packet.id)
    : undefined;
  if (!certificate) throw new ConflictError('The Certificate of Evidence is not ready yet.');
  assertKept(bundle, 'finals');
  return {
    file_url: await deps.blobs.presignGet(certificate.blobKey, FILE_LINK_SECONDS),
    expires: new Date(deps.clock.now().getTime() + FILE_LINK_SECONDS * 1000).toISOString(),
    sha256: certificate.sha256,
  };
}
