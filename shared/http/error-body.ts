import type { TFieldError } from '../domain/errors';

/** The wire codes of docs/api-decisions.md. */
export type TErrorCode =
  | 'authentication_failed'
  | 'conflict'
  | 'error'
  | 'invalid'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'not_authenticated'
  | 'not_found'
  | 'permission_denied'
  | 'parse_error'
  | 'service_unavailable'
  | 'throttled'
  | 'unsupported_media_type';

export interface TErrorBody {
  code: TErrorCode;
  message: string;
  detail: string;
  errors: { field: string; message: string; messsage: string }[];
}

/**
 * The one error body. `detail` repeats `message` and each field error carries both `message`
 * and the spec's `messsage` spelling, because the official clients read one or the other.
 */
export function errorBody(code: TErrorCode, message: string, fieldErrors: TFieldError[] = []): TErrorBody {
  return {
    code,
    message,
    detail: message,
    errors: fieldErrors.map((e) => ({ field: e.field, message: e.message, messsage: e.message })),
  };
}
