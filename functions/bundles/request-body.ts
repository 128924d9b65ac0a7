import { RawMultipart } from '../../shared/http/body';
import { ParseError } from '../../shared/http/errors';
import { filesByIndex, parseMultipart } from '../../shared/http/multipart';
import { BUNDLE_LIMITS } from '../../shared/schemas/bundle-request';

/**
 * A create request as JSON, or as multipart with the JSON in the `bundle_request` part and the
 * files as `files[N]` parts (what the official clients send).
 */
export async function bundleRequestOf(
  body: unknown,
): Promise<{ request: unknown; files: Map<number, Buffer> }> {
  if (!(body instanceof RawMultipart)) return { request: body, files: new Map() };
  const parsed = await parseMultipart(body.raw, body.contentType, {
    maxFiles: BUNDLE_LIMITS.documents,
    maxFileBytes: BUNDLE_LIMITS.requestBytes,
    maxFieldBytes: BUNDLE_LIMITS.requestBytes,
    maxParts: BUNDLE_LIMITS.documents + 10,
  });
  const json = parsed.fields.bundle_request?.[0];
  if (json === undefined)
    throw new ParseError('A multipart request needs a bundle_request part with the JSON.');
  let request: unknown;
  try {
    request = JSON.parse(json);
  } catch (err) {
    throw new ParseError(`bundle_request: JSON parse error - ${(err as Error).message}`);
  }
  const files = new Map([...filesByIndex(parsed.files)].map(([i, f]) => [i, f.data]));
  return { request, files };
}
