// The public paths where a token is the only credential, and what a client address over its limit
// there gets. The stack's WAF rules and the local gateway (its stand-in) both read this module,
// the numbers come from stage-config.ts. Kept free of aws-cdk-lib imports, as stage-config.ts.
import { errorBody } from '#shared/http/error-body';

/**
 * Each group is counted on its own, per client address: guessing signer session tokens does not
 * hold back the same address's preparation links. Prefixes are below the stage's path.
 */
export const PUBLIC_PATH_GROUPS: ReadonlyArray<{ name: string; prefixes: readonly string[] }> = [
  // POST /sign/api/session: a signing link's token becomes a session (the other signer calls
  // need that session, so guessing happens here); /sign/copies/: a copy link's token opens the
  // signed documents at once.
  { name: 'SignerSession', prefixes: ['/sign/api/session', '/sign/copies/'] },
  // Preparation pages and their API: the token is in the path or a header.
  { name: 'Preparation', prefixes: ['/prepare/'] },
  // The public verification page and its check.
  { name: 'Verification', prefixes: ['/verify'] },
  // Smart links: a public form that starts a bundle (each template also has counters of its own).
  { name: 'Portal', prefixes: ['/portal/'] },
  // The console's sign-in: a link's or an invitation's token becomes a session, and links are
  // asked for (which has its own counters per address and per client address as well).
  {
    name: 'ConsoleSignIn',
    prefixes: ['/console/api/sessions', '/console/api/sign-in', '/console/api/invitations/'],
  },
];

/** Over the limit, these get the API's JSON error body; every other path a short page. */
export const PUBLIC_API_PREFIXES: readonly string[] = [
  '/sign/api/',
  '/prepare/api/',
  '/verify/api/',
  '/console/api/',
];

/** The label the counting rules put on requests over the limit; the blocking rules match it. */
export const PUBLIC_PATH_LIMITED_LABEL = 'esign:public-path-limited';

const MESSAGE = 'Too many requests from this address. Wait a minute and try again.';

/** The bodies of the 429 answer (WAF custom response bodies hold at most 4 KB each). */
export const PUBLIC_PATH_LIMITED_ANSWERS = {
  json: JSON.stringify(errorBody('throttled', MESSAGE)),
  page: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><h1>Too many requests</h1><p>${MESSAGE}</p></body></html>`,
} as const;

/**
 * The path as the WAF rules see it after their text transformations (URL-decoded, repeated
 * slashes collapsed), so an encoded path is counted as the plain one.
 */
export function normalizedPath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape stays as it came; the handler answers it.
  }
  return decoded.replace(/\/{2,}/g, '/');
}

/** The group a path (below the stage) is counted in, if any. */
export function publicPathGroupOf(path: string): string | undefined {
  const p = normalizedPath(path);
  return PUBLIC_PATH_GROUPS.find((g) => g.prefixes.some((prefix) => p.startsWith(prefix)))?.name;
}

export function isPublicApiPath(path: string): boolean {
  const p = normalizedPath(path);
  return PUBLIC_API_PREFIXES.some((prefix) => p.startsWith(prefix));
}
