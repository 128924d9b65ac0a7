import busboy from 'busboy';
import { ValidationError } from '#shared/domain/errors';
import { ParseError, PayloadTooLargeError } from './errors';

export interface TMultipartLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxFieldBytes: number;
  maxParts: number;
}

export interface TMultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface TMultipartBody {
  fields: Record<string, string[]>;
  files: TMultipartFile[];
}

interface TFieldPart {
  name: string;
  value: string;
}

interface TPassResult {
  fields: TFieldPart[];
  files: TMultipartFile[];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// RFC 2046 §5.1.1: 1 to 70 characters from a small set, and not ending in a space.
const validBoundary = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
const boundaryParam = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

// RFC 7578 deprecates Content-Transfer-Encoding; busboy passes bytes through undecoded, so a part
// in base64 or quoted-printable would silently arrive as its encoded text.
const identityEncodings = new Set(['7bit', '8bit', 'binary']);

const busboyMessages: Record<string, string> = {
  'Malformed content type': 'Malformed multipart Content-Type header.',
  'Multipart: Boundary not found': 'Multipart Content-Type header has no boundary.',
  'Unexpected end of form':
    'Multipart body ended before its closing boundary (truncated, or the boundary does not match the Content-Type header).',
  'Unexpected end of file':
    'Multipart body ended inside a file part (truncated, or the boundary does not match the Content-Type header).',
  'Malformed part header': 'Multipart body has a malformed part header.',
};

function toParseError(err: unknown): ParseError {
  const message = err instanceof Error ? err.message : String(err);
  return new ParseError(busboyMessages[message] ?? `Malformed multipart body: ${message}`);
}

function checkContentType(contentType: string): void {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime !== 'multipart/form-data') {
    throw new ParseError(`Expected a multipart/form-data body, got "${contentType}".`);
  }
  const match = boundaryParam.exec(contentType);
  if (!match) throw new ParseError('Multipart Content-Type header has no boundary.');
  const boundary = match[1] ?? match[2] ?? '';
  if (!validBoundary.test(boundary)) {
    throw new ParseError(
      "Multipart boundary must be 1 to 70 characters of letters, digits and '()+_,-./:=? and not end in a space.",
    );
  }
}

/**
 * One run of busboy over the whole buffer. Settles exactly once: on the first error or limit hit, or
 * once busboy has closed cleanly and every file stream has been drained.
 */
function runBusboy(
  raw: Buffer,
  contentType: string,
  limits: TMultipartLimits,
  defCharset: 'utf8' | 'latin1',
  collectFiles: boolean,
): Promise<TPassResult> {
  return new Promise<TPassResult>((resolve, reject) => {
    const fields: TFieldPart[] = [];
    const files: TMultipartFile[] = [];
    let settled = false;
    let finished = false;
    let closed = false;
    let openFiles = 0;
    let parser: busboy.Busboy | undefined;

    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      reject(err);
      // Deferred so busboy is never torn down from inside its own write call; its later 'error'
      // events land on listeners that ignore them because the promise has settled.
      const toStop = parser;
      if (toStop) queueMicrotask(() => toStop.destroy());
    };

    const maybeResolve = (): void => {
      if (settled || !closed || openFiles > 0) return;
      if (!finished) {
        fail(new ParseError('Multipart body ended unexpectedly.'));
        return;
      }
      settled = true;
      resolve({ fields, files });
    };

    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defCharset,
        // Clients send UTF-8 file names as raw bytes (browsers, undici); busboy's default reads latin1.
        defParamCharset: 'utf8',
        limits: {
          files: limits.maxFiles,
          // busboy reports a limit as soon as a part *reaches* it, so one extra byte (or part) lets
          // content of exactly the configured size through and still catches anything larger.
          fileSize: limits.maxFileBytes + 1,
          fieldSize: limits.maxFieldBytes + 1,
          parts: limits.maxParts + 1,
        },
      });
    } catch (err) {
      fail(toParseError(err));
      return;
    }

    parser.on('field', (name, value, info) => {
      if (settled) return;
      // The typings promise strings, but a part without a name yields undefined, and a part declaring
      // a charset busboy cannot decode yields an undefined value.
      if (typeof name !== 'string') {
        fail(new ParseError('Multipart part has no name in its Content-Disposition header.'));
      } else if (info.valueTruncated) {
        fail(new PayloadTooLargeError(`Field "${name}" is larger than ${limits.maxFieldBytes} bytes.`));
      } else if (!identityEncodings.has(info.encoding)) {
        fail(
          new ParseError(`Field "${name}" uses unsupported Content-Transfer-Encoding "${info.encoding}".`),
        );
      } else if (typeof value !== 'string') {
        fail(new ParseError(`Field "${name}" declares a charset that is not supported.`));
      } else {
        fields.push({ name, value });
      }
    });

    if (collectFiles) {
      parser.on('file', (name, stream, info) => {
        openFiles += 1;
        const chunks: Buffer[] = [];
        const entry: TMultipartFile = {
          field: name,
          filename: info.filename ?? '',
          contentType: info.mimeType,
          data: Buffer.alloc(0),
        };
        // Listeners go on before any check can fail: busboy waits for every file stream to be read
        // to its end, and an unhandled stream error would crash the process.
        stream.on('data', (chunk: Buffer) => {
          if (!settled) chunks.push(chunk);
        });
        stream.on('limit', () => {
          fail(new PayloadTooLargeError(`File "${name}" is larger than ${limits.maxFileBytes} bytes.`));
        });
        stream.on('error', (err: unknown) => fail(toParseError(err)));
        stream.on('end', () => {
          entry.data = Buffer.concat(chunks);
        });
        stream.on('close', () => {
          openFiles -= 1;
          maybeResolve();
        });
        if (typeof name !== 'string') {
          fail(new ParseError('Multipart part has no name in its Content-Disposition header.'));
        } else if (!identityEncodings.has(info.encoding)) {
          fail(
            new ParseError(`File "${name}" uses unsupported Content-Transfer-Encoding "${info.encoding}".`),
          );
        } else {
          files.push(entry);
        }
      });
    }

    parser.on('filesLimit', () => {
      fail(
        new ValidationError('Too many files.', [
          { field: 'files', message: `At most ${limits.maxFiles} files may be uploaded.` },
        ]),
      );
    });
    parser.on('partsLimit', () => {
      fail(new PayloadTooLargeError(`Multipart body has more than ${limits.maxParts} parts.`));
    });
    parser.on('error', (err) => fail(toParseError(err)));
    parser.on('finish', () => {
      finished = true;
    });
    parser.on('close', () => {
      closed = true;
      maybeResolve();
    });

    try {
      parser.end(raw);
    } catch (err) {
      fail(toParseError(err));
    }
  });
}

/**
 * Parses a whole multipart/form-data body. Rejects only with ParseError (malformed body or header,
 * field not UTF-8), PayloadTooLargeError (a file, field or the part count over its limit) or
 * ValidationError on field `files` (too many files).
 */
export async function parseMultipart(
  raw: Buffer,
  contentType: string,
  limits: TMultipartLimits,
): Promise<TMultipartBody> {
  checkContentType(contentType);
  const decoded = await runBusboy(raw, contentType, limits, 'utf8', true);

  // busboy decodes field bytes leniently, turning bad UTF-8 into U+FFFD, so U+FFFD alone cannot tell
  // bad input from a client that really sent that character. Only then is the body read again with
  // latin1 as the default, which keeps each byte of a part without a declared charset as one
  // character and so can be checked exactly. A part that declares its own charset decodes the same
  // both times; for it there is no way to tell, so it is refused.
  const suspects = decoded.fields.flatMap((f, i) => (f.value.includes('\uFFFD') ? [i] : []));
  if (suspects.length > 0) {
    const bytewise = await runBusboy(raw, contentType, limits, 'latin1', false);
    for (const i of suspects) {
      const utf8Value = decoded.fields[i]!.value;
      const latin1Value = bytewise.fields[i]?.value;
      const valid =
        latin1Value !== undefined && latin1Value !== utf8Value && isUtf8(Buffer.from(latin1Value, 'latin1'));
      if (!valid) throw new ParseError(`Field "${decoded.fields[i]!.name}" is not valid UTF-8.`);
    }
  }

  const fields = new Map<string, string[]>();
  for (const { name, value } of decoded.fields) {
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  // fromEntries defines own properties, so a field named "__proto__" is kept as data.
  return { fields: Object.fromEntries(fields), files: decoded.files };
}

function isUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const indexedFileField = /^files?\[(\d{1,9})\]$/;

/**
 * Maps upload parts to the `file_index` that documents refer to: `files[N]` and `file[N]` are N,
 * and parts named plain `file` are numbered 0, 1, 2… in the order they were sent.
 */
export function filesByIndex<TFile extends { field: string }>(files: readonly TFile[]): Map<number, TFile> {
  const byIndex = new Map<number, TFile>();
  let nextUnindexed = 0;
  for (const file of files) {
    const match = indexedFileField.exec(file.field);
    let index: number;
    if (match) {
      index = Number(match[1]);
    } else if (file.field === 'file') {
      index = nextUnindexed;
      nextUnindexed += 1;
    } else {
      // Dropping it would let a document point at a file the caller believes it sent.
      throw new ValidationError(`Unexpected file field "${file.field}".`, [
        { field: file.field, message: 'Send files as files[N], file[N] or repeated file parts.' },
      ]);
    }
    if (byIndex.has(index)) {
      throw new ValidationError(`Duplicate file index ${index}.`, [
        { field: file.field, message: `Another file part already uses index ${index}.` },
      ]);
    }
    byIndex.set(index, file);
  }
  return byIndex;
}

/**
 * The JSON a multipart request carries in its `part` field (`bundle_request`, `template_request`,
 * a bulk send's `bundle`), or a 400 that names the part.
 */
export function jsonPart(body: TMultipartBody, part: string, what = 'request'): unknown {
  const json = body.fields[part]?.[0];
  if (json === undefined) throw new ParseError(`A multipart ${what} needs a ${part} part with the JSON.`);
  try {
    return JSON.parse(json);
  } catch (err) {
    throw new ParseError(`${part}: JSON parse error - ${(err as Error).message}`);
  }
}
