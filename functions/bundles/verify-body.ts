import { ValidationError } from '#shared/domain/errors';
import { RawMultipart, RawUpload } from '#shared/http/body';
import { parseMultipart } from '#shared/http/multipart';

/** API Gateway hands a Lambda at most 6 MB; a body above that never arrives. */
export const VERIFY_MAX_BYTES = 6 * 1024 * 1024;

const LIMITS = { maxFiles: 1, maxFileBytes: VERIFY_MAX_BYTES, maxFieldBytes: 1_000, maxParts: 4 };

/**
 * POST /verify/: the file as the whole body (`application/pdf` or any file type), as multipart
 * part `file` (or a `sha256` field), or JSON `{"sha256": "…"}`. A body sent without a content
 * type that reads as a JSON object is taken as JSON, as the API does elsewhere.
 */
export async function verifyInputOf(body: unknown): Promise<{ bytes: Uint8Array } | { body: unknown }> {
  if (body instanceof RawUpload) {
    if (body.contentType === 'application/octet-stream' && body.raw[0] === 0x7b) {
      try {
        return { body: JSON.parse(body.raw.toString('utf8')) as unknown };
      } catch {
        // not JSON: the file it was sent as
      }
    }
    return { bytes: body.raw };
  }
  if (body instanceof RawMultipart) {
    const parsed = await parseMultipart(body.raw, body.contentType, LIMITS);
    const file = parsed.files.find((f) => f.field === 'file') ?? parsed.files[0];
    if (file) return { bytes: file.data };
    if (parsed.fields.sha256?.[0] !== undefined) return { body: { sha256: parsed.fields.sha256[0] } };
    throw new ValidationError('Send the file as part "file", or its SHA-256 as field "sha256".', [
      { field: 'file', message: 'A file or a SHA-256 is required.' },
    ]);
  }
  return { body };
}
