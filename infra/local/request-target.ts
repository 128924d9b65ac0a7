// The request line's target, read as API Gateway reads it: the path the client sent and the URL
// the gateway routes on. Resolving the target against a base, as `new URL(target, base)` does,
// would read a path beginning `//` or `/\` as a host followed by a path.

export interface TRequestTarget {
  /** The path as sent, before dot segments are resolved and without the query. */
  rawPath: string;
  /** Path (dot segments resolved, `\` read as `/`) and query; its host means nothing. */
  url: URL;
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * Origin form (`/path?query`) is a path whatever it begins with; the absolute form a client may
 * send to a proxy (`http://host/path`) names its host, and its path is what follows.
 */
export function requestTarget(target: string | undefined): TRequestTarget {
  const raw = target ?? '/';
  const authority = ABSOLUTE_FORM.exec(raw);
  let rest = authority ? raw.slice(authority[0].length) : raw;
  if (!rest.startsWith('/')) rest = `/${rest}`; // `*`, or an absolute form without a path
  return { rawPath: rest.split('?')[0]!, url: new URL(`http://localhost${rest}`) };
}
