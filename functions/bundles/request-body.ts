import { RawMultipart } from '#shared/http/body';
import { filesByIndex, jsonPart, parseMultipart } from '#shared/http/multipart';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';

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
  const request = jsonPart(parsed, 'bundle_request');
  const files = new Map([...filesByIndex(parsed.files)].map(([i, f]) => [i, f.data]));
  return { request, files };
}
