// Which words say why a Manage screen's call failed, from the API's HTTP status.

/** The `manage.errors` key for a failed call: its HTTP status, undefined when none came back. */
export function failureKey(status: number | undefined): string {
  if (status === undefined) return 'manage.errors.unreachable';
  if (status === 403) return 'manage.errors.forbidden';
  if (status === 404 || status === 410) return 'manage.errors.notFound';
  if (status === 409) return 'manage.errors.conflict';
  if (status === 413) return 'manage.errors.tooLarge';
  if (status === 429) return 'manage.errors.tooMany';
  if (status >= 400 && status < 500) return 'manage.errors.invalid';
  return 'manage.errors.failed';
}
