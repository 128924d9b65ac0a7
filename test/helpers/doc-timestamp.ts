// A document timestamp (PAdES B-LTA's last step) appended to a PDF for the verifier's tests, by
// the writer sealing uses (shared/pdf/ltv.ts): a /DocTimeStamp field whose token (RFC 3161,
// SubFilter ETSI.RFC3161) covers the SHA-256 of its byte ranges.
import { addDocumentTimestamp } from '#shared/pdf/ltv';

export async function withDocTimestamp(
  pdf: Uint8Array,
  stamp: (imprint: Buffer) => Promise<Buffer>,
): Promise<Buffer> {
  return (await addDocumentTimestamp(Buffer.from(pdf), stamp)).bytes;
}
