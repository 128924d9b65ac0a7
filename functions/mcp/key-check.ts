import { errorBody } from '#shared/http/error-body';

/** The API's own answer to a key it refuses, passed on to the MCP client as it is. */
export interface TRefusal {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Asks the API whether a key is good before an MCP request is served, so a bad key is refused
 * with the API's own 401 (or 429) rather than with a server whose every tool fails. The API is
 * the only judge: `GET /rate_limit/` goes through its authorizer and usage plan like any call
 * and changes nothing. Asked on every request and kept nowhere here: the authorizer's cached
 * answer is the one cache, so a revoked key stops at /mcp (initialize and tools/list included)
 * when it stops at the API, not a cache lifetime later.
 */
export function createKeyCheck(opts: { fetch?: typeof fetch }) {
  const doFetch = opts.fetch ?? fetch;

  return async function check(apiUrl: string, key: string): Promise<TRefusal | undefined> {
    let res: Response;
    try {
      res = await doFetch(`${apiUrl}/rate_limit/`, {
        headers: { authorization: `Token ${key}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return unavailable();
    }
    const body = await res.text();
    if (res.ok) return undefined;
    if (![401, 403, 429].includes(res.status)) return unavailable();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of ['retry-after', 'www-authenticate']) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    return { status: res.status, body, headers };
  };
}

function unavailable(): TRefusal {
  return {
    status: 503,
    body: JSON.stringify(
      errorBody('service_unavailable', 'The API could not check the key. Try again shortly.'),
    ),
    headers: { 'content-type': 'application/json' },
  };
}
