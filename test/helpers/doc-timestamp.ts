// A document timestamp (PAdES B-LTA's last step) appended to a PDF for the verifier's tests: a
// signature field whose /Contents is an RFC 3161 token over the SHA-256 of its byte ranges, with
// sub-filter ETSI.RFC3161, laid out by the seal's own placeholder writer. Until sealing writes
// document timestamps itself, this is how a test gets one from the local authority.
import { createHash } from 'node:crypto';
import { addSealPlaceholder } from '../../shared/pdf/seal-placeholder';

export async function withDocTimestamp(
  pdf: Uint8Array,
  stamp: (imprint: Buffer) => Promise<Buffer>,
): Promise<Buffer> {
  const prepared = addSealPlaceholder(Buffer.from(pdf), {
    reason: 'Document timestamp',
    name: 'Document timestamp',
    signingTime: new Date(),
    signatureLength: 16384,
    subFilter: 'ETSI.RFC3161',
  });
  if (!prepared) throw new Error('The PDF could not take a document timestamp');
  const { bytes, contentsAt, contentsLength } = prepared;
  const digest = createHash('sha256')
    .update(bytes.subarray(0, contentsAt))
    .update(bytes.subarray(contentsAt + contentsLength))
    .digest();
  const token = await stamp(digest);
  if (token.length * 2 > contentsLength - 2) throw new Error('The token does not fit its reserved space');
  bytes.write(token.toString('hex'), contentsAt + 1, 'latin1');
  return bytes;
}
