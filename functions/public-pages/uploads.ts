import { ValidationError } from '#shared/domain/errors';
import { RawMultipart, RawUpload } from '#shared/http/body';

const LIMITS = { maxFiles: 2, maxFileBytes: 10 * 1024 * 1024, maxFieldBytes: 10_000, maxParts: 10 };

export interface TUploadedFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

/**
 * The files of an upload call: the whole body as one file (its name from `?name=` or the
 * `X-File-Name` header), or the named parts of a multipart body.
 */
export async function filesOf(
  body: unknown,
  names: string[],
  fallbackName: string | undefined,
): Promise<Record<string, TUploadedFile | undefined>> {
  if (body instanceof RawUpload) {
    return {
      [names[0]!]: { bytes: body.raw, contentType: body.contentType, fileName: fallbackName ?? 'upload' },
    };
  }
  if (body instanceof RawMultipart) {
    // The multipart parser (busboy) is loaded by the first multipart body (ID images, the verify
    // form): the signing page sends attachments and selfies as the body, and most calls upload nothing.
    const { parseMultipart } = await import('#shared/http/multipart');
    const parsed = await parseMultipart(body.raw, body.contentType, LIMITS);
    return Object.fromEntries(
      names.map((n) => {
        const f = parsed.files.find((x) => x.field === n);
        return [
          n,
          f
            ? { bytes: f.data, contentType: f.contentType, fileName: f.filename || fallbackName || n }
            : undefined,
        ];
      }),
    );
  }
  throw new ValidationError('Send the file as the request body or as multipart/form-data.', [
    { field: names[0]!, message: 'A file is required.' },
  ]);
}
