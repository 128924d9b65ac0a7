export type TUnsafeUrlReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'port'
  | 'address'
  | 'redirects'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'unreachable';

/**
 * A sender-supplied URL was refused or could not be fetched. The message is written for the API
 * client: it names the URL the client gave and what is wrong with it, and never the addresses it
 * resolved to or low-level socket errors, which would let a caller map our internal network.
 * The underlying error, if any, is kept in `cause` for server-side logs only.
 */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
  /** The HTTP status of the final response, for reason 'http_status'. */
  readonly status: number | undefined;
  constructor(
    readonly reason: TUnsafeUrlReason,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}
