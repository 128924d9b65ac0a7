// The errors the service raises on purpose, one family: each is a ServiceError with a message
// for whoever must act and, where another error led to it, that error as its `cause`. The HTTP
// status and wire code of each class are decided in one place, shared/http/error-mapping.ts, by
// class; an error outside the family is a 500 whose message never reaches the client.

/**
 * A message a signer or visitor may read, by its key in the signer-facing catalogs (shared/i18n,
 * by its full key: `errors.linkInvalid`, `sign.rules.date`) and the values of its placeholders: the
 * public pages answer it in the reader's language, the sender's API in English as written.
 */
export interface TMessageRef {
  key: string;
  values?: Record<string, string | number>;
}

/** The family's base: what the service says on purpose, with what led to it. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  /** Set (with `said`) on errors a signer may read; the English `message` stays what the API says. */
  said?: TMessageRef;
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface TFieldError {
  field: string;
  message: string;
  /** The message in the signer-facing catalogs, for a field a signer fills. */
  said?: TMessageRef;
}

/** The error, marked with its message's key for readers in other languages. */
export function said<E extends ServiceError>(err: E, key: string, values?: TMessageRef['values']): E {
  err.said = values ? { key, values } : { key };
  return err;
}

export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
  constructor(message = 'Not found.') {
    super(message);
  }
}

export class ValidationError extends ServiceError {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly fieldErrors: TFieldError[] = [],
  ) {
    super(message);
  }
}

export class ConflictError extends ServiceError {
  override name = 'ConflictError';
}

export class PermissionDeniedError extends ServiceError {
  override name = 'PermissionDeniedError';
  constructor(message = 'You do not have permission to perform this action.') {
    super(message);
  }
}

export class ThrottledError extends ServiceError {
  override name = 'ThrottledError';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Request was throttled.',
  ) {
    super(message);
  }
}

/** An optimistic-concurrency write lost a race; use cases retry on it, HTTP maps it to 409. */
export class ConcurrentUpdateError extends ServiceError {
  override name = 'ConcurrentUpdateError';
  constructor(message = 'The resource was changed by another request; try again.') {
    super(message);
  }
}

/** A single-use link that was used already. */
export class GoneError extends ServiceError {
  override name = 'GoneError';
}

/**
 * A file the account's retention policy deleted: the bundle and its record stay, the file is gone
 * for good (410 `gone`), so a client stops asking rather than retrying a 404 or a 500.
 */
export class ContentDeletedError extends ServiceError {
  override name = 'ContentDeletedError';
  constructor(readonly deletedAt: string) {
    super(
      `This file was deleted by the account's retention policy on ${deletedAt.slice(0, 10)}. ` +
        "The bundle, its events and every file's SHA-256 are kept: check a copy at POST /verify/.",
    );
  }
}

/**
 * An account's documents after the operator destroyed its own key (crypto-shredding): unreadable
 * for good, and none can be stored (410 `gone`), while its bundles and their hashes stay.
 */
export class DocumentsKeyDestroyedError extends ServiceError {
  override name = 'DocumentsKeyDestroyedError';
  constructor(destroyedAt: string | undefined, options?: { cause?: unknown }) {
    super(
      `This account's documents can no longer be read or stored: its encryption key was destroyed${destroyedAt ? ` on ${destroyedAt.slice(0, 10)}` : ''}. ` +
        "The bundles, their events and every file's SHA-256 are kept: check a copy at POST /verify/.",
      options,
    );
  }
}

/**
 * A new document for an account whose own key the operator is destroying at this moment: refused
 * (409), so nothing is stored under a key about to go, and nothing the destruction could miss.
 */
export class DocumentsKeyDestroyingError extends ServiceError {
  override name = 'DocumentsKeyDestroyingError';
  constructor() {
    super(
      "This account's documents key is being destroyed, so no new documents can be stored for it. " +
        'If the operator calls the destruction off, send the request again (with a new Idempotency-Key if it had one).',
    );
  }
}

/**
 * Whether a new document may be stored for an account whose own key is `key`: an error when the
 * key is destroyed (410) or being destroyed (409), undefined when it may. Every path that stores
 * one asks this of the account it has just read (create-bundle.ts, the documents bucket's
 * adapter), so the refusal costs no request of its own.
 */
export function newDocumentsRefusal(
  key: { destroying?: unknown; destroyed?: string } | undefined,
): ServiceError | undefined {
  if (key?.destroyed) return new DocumentsKeyDestroyedError(key.destroyed);
  if (key?.destroying) return new DocumentsKeyDestroyingError();
  return undefined;
}

/** A console sign-in link that is unknown, used or expired: the user asks for a new one. */
export class InvalidLinkError extends ServiceError {
  override name = 'InvalidLinkError';
  constructor(message = 'This sign-in link has expired or was already used. Ask for a new one.') {
    super(message);
  }
}

/**
 * A passkey sign-in that did not prove a user: an unknown or removed passkey, a wrong signature,
 * an expired challenge. One answer for all, so it never tells which passkeys or users exist.
 */
export class PasskeyRefusedError extends ServiceError {
  override name = 'PasskeyRefusedError';
  constructor(message = 'This passkey could not sign you in. Try again, or sign in with an email link.') {
    super(message);
  }
}

/** A change made with a console session but without its CSRF token (another site's form). */
export class CsrfFailedError extends ServiceError {
  override name = 'CsrfFailedError';
  constructor(message = 'The X-CSRF-Token header is missing or wrong. Reload the console and try again.') {
    super(message);
  }
}

/** A signer's session that is missing, unknown or expired: the page must be opened again. */
export class SigningSessionError extends ServiceError {
  override name = 'SigningSessionError';
  override said = { key: 'errors.sessionEnded' };
  constructor(message = 'Your signing session has ended. Open your signing link again.') {
    super(message);
  }
}

/**
 * Something the operator must set up is missing or broken (e.g. the payment processor's keys):
 * 503, so that callers (and Stripe's webhook deliveries) retry once it is fixed.
 */
export class ServiceUnavailableError extends ServiceError {
  override name = 'ServiceUnavailableError';
}

/**
 * A stored object that is not there: the blob store's adapter says so in these words, so that
 * use cases never look at a storage service's own errors.
 */
export class BlobNotFoundError extends ServiceError {
  override name = 'BlobNotFoundError';
  constructor(key: string, options?: { cause?: unknown }) {
    super(`No stored object at ${key}.`, options);
  }
}

/**
 * A file that would cost more to read than one request may spend (a cap on its objects, its
 * expanded bytes or its signatures, or the time and memory budget of the work): 422, not a
 * verdict on the file. The message says which limit.
 */
export class TooComplexError extends ServiceError {
  override name = 'TooComplexError';
  override said: TMessageRef = { key: 'errors.tooComplex' };
}

// The seal's outside sources: the evidence ports' adapters raise these, the document job retries.

/**
 * No timestamp authority gave a valid timestamp for a seal: `failures` says why each did not, one
 * per URL in the order tried (never a credential). A seal is not written without its timestamp, so
 * the document job is retried, and after its last attempt the bundle fails.
 */
export class TimestampUnavailableError extends ServiceError {
  override name = 'TimestampUnavailableError';
  constructor(readonly failures: { url: string; reason: string }[]) {
    super(
      failures.length === 0
        ? 'No timestamp authority is configured.'
        : `No timestamp authority gave a valid timestamp: ${failures.map((f) => `${f.url}: ${f.reason}`).join('; ')}`,
    );
  }
}

/**
 * The validation data of a seal (PAdES B-LT) could not be had: a certificate of its chains, or of
 * its timestamp authority's, is revoked, or its issuer, OCSP answer or CRL could not be fetched or
 * did not check out. `failures` names each certificate (its subject) and why. Like a missing
 * timestamp, the job is retried and the bundle shows the reason.
 */
export class ValidationDataUnavailableError extends ServiceError {
  override name = 'ValidationDataUnavailableError';
  constructor(readonly failures: { certificate: string; reason: string }[]) {
    super(
      `The seal's certificates could not be shown valid: ${failures.map((f) => `${f.certificate}: ${f.reason}`).join('; ')}`,
    );
  }
}
