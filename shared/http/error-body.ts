import * as z from 'zod';
import type { TFieldError } from '#shared/domain/errors';

/** The wire codes of docs/api-decisions.md. */
export const ERROR_CODES = [
  'authentication_failed',
  'conflict',
  'csrf_failed',
  'error',
  'gone',
  'idempotency_in_flight',
  'idempotency_key_reused',
  'invalid',
  'invalid_link',
  'method_not_allowed',
  'not_acceptable',
  'not_authenticated',
  'not_found',
  'permission_denied',
  'parse_error',
  'service_unavailable',
  'throttled',
  'too_complex',
  'unsupported_media_type',
] as const;
export type TErrorCode = (typeof ERROR_CODES)[number];

/** The error body's schema: the API description (shared/openapi) publishes it as `Error`. */
export const ZErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    detail: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string(), messsage: z.string() })),
  })
  .meta({ id: 'Error' });
export type TErrorBody = z.output<typeof ZErrorBodySchema>;

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
