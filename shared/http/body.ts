import qs from 'qs';
import { ParseError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';

/** `raw`: any body, unparsed, as a RawUpload (webhooks whose signature covers the exact bytes). */
export type TBodyKind = 'json' | 'form' | 'multipart' | 'upload' | 'raw';

/**
 * A multipart body is handed to the route as is, for the routes that accept one (bundle and
 * template creation, signer uploads, verification): its parser is asynchronous and each route
 * sets its own limits (shared/http/multipart.ts).
 */
export class RawMultipart {
  constructor(
    readonly raw: Buffer,
    readonly contentType: string,
  ) {}
}

/** A file sent as the whole body (its type in Content-Type), for routes that accept `upload`. */
export class RawUpload {
  constructor(
    readonly raw: Buffer,
    readonly contentType: string,
  ) {}
}

export interface TBodyOptions {
  accept: TBodyKind[];
  maxBytes: number;
}

export const defaultBodyOptions: TBodyOptions = { accept: ['json', 'form'], maxBytes: 1024 * 1024 };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function kindOf(contentType: string | undefined): TBodyKind | 'none' | 'other' {
  if (!contentType) return 'none';
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'application/x-www-form-urlencoded') return 'form';
  if (mime === 'multipart/form-data') return 'multipart';
  return 'other';
}

/**
 * Turns the raw body into the object a JSON client would have sent. Form bodies follow the
 * conventions of the official clients: repeated keys become lists, `a[0][b]` and `a.b` nest.
 * Scalars stay strings; the schemas accept "True"/"true" for booleans as the upstream does.
 */
export function parseBody(
  raw: Buffer | undefined,
  contentType: string | undefined,
  options: TBodyOptions = defaultBodyOptions,
): unknown {
  if (!raw || raw.length === 0) return {};
  if (raw.length > options.maxBytes) {
    throw new PayloadTooLargeError(`Request body is larger than ${options.maxBytes} bytes.`);
  }
  if (options.accept.includes('raw')) return new RawUpload(raw, contentType ?? 'application/octet-stream');
  let kind = kindOf(contentType);
  if (options.accept.includes('upload') && (kind === 'other' || kind === 'none')) {
    return new RawUpload(raw, contentType ?? 'application/octet-stream');
  }
  // A body sent with no content type at all is read as JSON, the API's norm.
  if (kind === 'none') kind = 'json';
  if (kind === 'other' || !options.accept.includes(kind)) {
    throw new UnsupportedMediaTypeError(`Unsupported media type "${contentType ?? ''}" in request.`);
  }
  if (kind === 'multipart') return new RawMultipart(raw, contentType ?? '');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ParseError('Request body is not valid UTF-8.');
  }
  if (kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new ParseError(`JSON parse error - ${(err as Error).message}`);
    }
  }
  return qs.parse(text, { allowDots: true, depth: 5, arrayLimit: 100, parameterLimit: 1000 });
}
