// Input checked against a wire schema (shared/schemas), its problems turned into the domain's
// ValidationError. The schemas only declare the format and stand alone; the error is the
// domain's, raised here where the use cases validate what they are given.
import type * as z from 'zod';
import { type TFieldError, ValidationError } from './errors';

/** `['channels', 0, 'email']` → `channels[0].email`, the path style of docs/api-decisions.md. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? 'non_field_errors' : out;
}

/** zod's issues as per-field errors, placed under `path` (`documents[2]`) when given. */
function toFieldErrors(error: z.ZodError, path: readonly PropertyKey[] = []): TFieldError[] {
  return error.issues.map((issue) => ({
    field: fieldPath([...path, ...issue.path]),
    message: issue.message,
  }));
}

/** Validates a request body, turning zod's issues into the API's 400 with per-field errors. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError('Invalid input.', toFieldErrors(result.error));
  return result.data;
}

/** The same for a part of a body, with its errors placed under `path` and returned, not thrown. */
export function parseInputAt<T extends z.ZodType>(
  schema: T,
  input: unknown,
  path: readonly PropertyKey[],
): { data: z.output<T> } | { errors: TFieldError[] } {
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data };
  return { errors: toFieldErrors(result.error, path) };
}
