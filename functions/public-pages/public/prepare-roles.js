// @ts-check
// A field's `editor_roles` as the preparation page (prepare.js) changes them: each entry is a role
// key, optionally prefixed with `-`. The page shows and edits the first entry; the others, and the
// prefix, are kept as the template had them.

const bare = (entry) => entry.replace(/^-/, '');

/** The role the page shows for a field: its first entry's key, without the prefix ('' for none). */
export const roleOf = (f) => bare(f.editor_roles?.[0] ?? '');

/**
 * The entries with the first one's role set to `key` (its `-` prefix kept), or the first one
 * removed when `key` is ''. Another entry for the same role is dropped, so no role is listed twice.
 */
export function withRole(editorRoles, key) {
  const [first, ...others] = editorRoles ?? [];
  if (!key) return others;
  const prefix = first?.startsWith('-') ? '-' : '';
  return [`${prefix}${key}`, ...others.filter((e) => bare(e) !== key)];
}

/** The entries with the role `from` renamed `to`, prefixes kept. */
export const renameRoleIn = (editorRoles, from, to) =>
  (editorRoles ?? []).map((e) => (bare(e) === from ? `${e.startsWith('-') ? '-' : ''}${to}` : e));

/** The entries without the role `key`, with or without the prefix. */
export const withoutRole = (editorRoles, key) => (editorRoles ?? []).filter((e) => bare(e) !== key);
