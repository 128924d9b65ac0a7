// A preparation session: an unguessable, expiring link to a public page where someone without an
// API key places fields: a Document Template's roles and fields (ARCHITECTURE.md, "Template
// preparation sessions"), or a draft bundle's fields (docs/architecture/bundle-editor.md). The
// link's token is stored only as its SHA-256.
import type { TActor } from '../bundles/actor';

/** How long a preparation link works after it is made. */
export const PREP_SESSION_TTL_SECONDS = 60 * 60;

export interface TPrepSession {
  /** SHA-256 (hex) of the link's token. */
  hash: string;
  accountId: string;
  /** The API key's user that made the session: the page edits the template as this user. */
  userId: string;
  /** The template the page prepares; absent for a draft bundle's session. */
  templateId?: string;
  /** The draft bundle the page edits; absent for a template's session. */
  bundleId?: string;
  /** A draft bundle's session: who made the link, the actor of what the page changes. */
  actor?: TActor;
  /** Absent: any tag; empty: none; else exact tags and `namespace:*` patterns. */
  allowedTags?: string[];
  redirectUrl?: string;
  created: string;
  expires: string;
  /**
   * Set by the first save that went through (a template's), or by sending the draft (a bundle's):
   * the session is over.
   */
  savedAt?: string;
}

/** `acme:*` allows `acme:x` and `acme:x:y`; any other entry allows exactly itself. */
export function tagAllowed(tag: string, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined) return true;
  return allowed.some((p) => (p.endsWith(':*') ? tag.startsWith(p.slice(0, -1)) : tag === p));
}

/** Every field whose `tag` the session does not allow, on its path (`fields[2].tag`). */
export function disallowedTags(fields: unknown, allowed: readonly string[] | undefined) {
  if (allowed === undefined || !Array.isArray(fields)) return [];
  return fields.flatMap((f, i) => {
    const tag = (f as { tag?: unknown } | null)?.tag;
    return typeof tag === 'string' && tag !== '' && !tagAllowed(tag, allowed)
      ? [{ field: `fields[${i}].tag`, message: `The tag "${tag}" is not allowed in this session.` }]
      : [];
  });
}
