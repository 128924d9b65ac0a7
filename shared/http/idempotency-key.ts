// What names a request for Idempotency-Key: the key's syntax and the request's fingerprint.
import { createHash } from 'node:crypto';
import { ValidationError } from '#shared/domain/errors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** On an answer given again from its record rather than made anew. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 printable ASCII characters: room for a UUID or a client's own composite key, nothing that could smuggle a control character into a log or the table. */
const KEY_SYNTAX = /^[\x20-\x7e]{1,255}$/;

/** The key as sent, or a 400 naming the header when it has not the key's syntax. */
export function checkIdempotencyKey(key: string): string {
  if (KEY_SYNTAX.test(key) && key.trim() === key) return key;
  throw new ValidationError('Invalid Idempotency-Key.', [
    {
      field: IDEMPOTENCY_HEADER,
      message:
        'Use 1 to 255 printable ASCII characters without leading or trailing spaces, for example a UUID made for this request.',
    },
  ]);
}

/**
 * SHA-256 of the method, the path (below /api/v2, trailing slash dropped) and the body's exact
 * bytes (JSON, form or multipart alike): a retry must send the same bytes to be the same request.
 */
export function requestFingerprint(method: string, path: string, body: Buffer | undefined): string {
  return (
    createHash('sha256')
      // As JSON, so no path can end in what looks like the start of a body.
      .update(`${JSON.stringify([method.toUpperCase(), path])}\n`)
      .update(body ?? Buffer.alloc(0))
      .digest('hex')
  );
}
