import type { TDocumentRequest } from '#shared/schemas/bundle-request';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { type TFieldError, ValidationError } from '../errors';
import type { TUrlFetcher } from '../ports/files';

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * The bytes of one document, from exactly one of file_b64, file_index (a multipart file) or
 * file_url (fetched through the guarded fetcher). Every refusal names the document's field.
 */
export async function documentBytes(
  doc: TDocumentRequest,
  path: string,
  files: ReadonlyMap<number, Buffer>,
  fetcher: TUrlFetcher,
): Promise<Buffer> {
  const fail = (field: string, message: string): never => {
    throw new ValidationError('Invalid input.', [
      { field: `${path}.${field}`, message },
    ] satisfies TFieldError[]);
  };
  const sources = (['file_url', 'file_b64', 'file_index'] as const).filter((k) => doc[k] !== undefined);
  if (sources.length !== 1) {
    fail(sources[1] ?? 'file_url', 'Give exactly one of file_url, file_b64 and file_index.');
  }
  let bytes: Buffer;
  if (doc.file_b64 !== undefined) {
    // A data: URL prefix is tolerated, since clients often send one.
    const b64 = doc.file_b64.replace(/^data:[^,]*;base64,/, '');
    if (!BASE64.test(b64)) fail('file_b64', 'Not valid base64.');
    bytes = Buffer.from(b64, 'base64');
  } else if (doc.file_index !== undefined) {
    const file = files.get(doc.file_index);
    if (!file) return fail('file_index', `No file was uploaded as files[${doc.file_index}].`);
    bytes = file;
  } else {
    try {
      bytes = (await fetcher.fetchUrl(doc.file_url!)).bytes;
    } catch (err) {
      if ((err as Error).name !== 'UnsafeUrlError') throw err;
      return fail('file_url', (err as Error).message);
    }
  }
  if (bytes.length === 0) fail(sources[0]!, 'The file is empty.');
  if (bytes.length > BUNDLE_LIMITS.documentBytes) {
    fail(sources[0]!, `A document may be at most ${BUNDLE_LIMITS.documentBytes / 1024 / 1024} MB.`);
  }
  return bytes;
}
