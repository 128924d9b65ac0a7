import { ValidationError } from '../errors';

/**
 * A template field arrives as a DocumentRequest field with `default_value` and `editor_roles` in
 * place of `initial_value` and `editors`: renamed, it is checked by the bundle rules.
 */
export function asDocumentField(f: Record<string, unknown>): Record<string, unknown> {
  const { default_value, editor_roles, initial_value, editors, ...rest } = f;
  const value = default_value ?? initial_value;
  const roles = editor_roles ?? editors;
  return {
    ...rest,
    ...(value !== undefined ? { initial_value: value } : {}),
    ...(roles !== undefined ? { editors: roles } : {}),
  };
}

/** `documents[0].fields[2].editors[0]` → `fields[2].editor_roles[0]`, signers → roles. */
function templateField(field: string): string {
  const bare = field.replace(/^documents\[0\]\.?/, '');
  return (bare === '' ? 'non_field_errors' : bare)
    .replace(/\.editors(\[|$)/, '.editor_roles$1')
    .replace(/\.initial_value$/, '.default_value');
}

/** A bundle document's validation error, told in the template's terms. */
export function asTemplateError(err: unknown): unknown {
  if (!(err instanceof ValidationError)) return err;
  return new ValidationError(
    err.message,
    err.fieldErrors.map((e) => ({
      field: templateField(e.field),
      message: e.message.replace(/([Nn])o signer has the key/, '$1o role has the key'),
    })),
  );
}
