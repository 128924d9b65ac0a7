// The console's calls: its session endpoints (/console/api/) and the service's own API
// (/api/v2/), which the session cookie authorizes as it would an API key. The cookie is HttpOnly
// and sent by the browser; every call that changes something also carries the session's CSRF
// token in X-CSRF-Token, which a page of another site cannot know.
import { bundleSearch, type TBundleQuery } from './bundle-query';
import { parsePagination, type TPagination } from './pagination';

export interface TSession {
  csrf_token: string;
  user: { id: string; name: string; email: string; is_admin: boolean };
  account: { id: string; name: string };
  expires: string;
}

/** The few fields of a bundle the list shows. */
export interface TBundleRow {
  id: string;
  label: string;
  status: string;
  created: string;
  sent: string | null;
  completed_at: string | null;
  packets: { id: string; name: string; email: string; status: string }[];
}

/**
 * A failed call: its HTTP status, the API's error code, Retry-After when it sent one, and the
 * fields a 400 names (`errors[].field`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds?: number,
    readonly fields?: string[],
  ) {
    super(`${status} ${code}`);
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface TConsoleApi {
  signIn(email: string): Promise<void>;
  redeemLink(token: string): Promise<TSession>;
  session(): Promise<TSession | undefined>;
  signOut(): Promise<void>;
  listBundles(query: TBundleQuery): Promise<{ bundles: TBundleRow[]; pagination: TPagination }>;
  /**
   * Any other call of the service, for a screen's own needs (`/api/v2/…` or `/console/api/…`):
   * the response when it is a 2xx, an ApiError otherwise; a change carries the CSRF token.
   */
  request(method: string, path: string, json?: unknown): Promise<Response>;
}

/** The calls over `fetch` (a stand-in in tests); the CSRF token is learnt from the session. */
export function consoleApi(fetcher: typeof fetch = (...a) => fetch(...a)): TConsoleApi {
  let csrf = '';

  async function call(method: string, path: string, json?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (!SAFE.has(method) && csrf) headers['x-csrf-token'] = csrf;
    const res = await fetcher(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    if (res.ok) return res;
    const body = await res.json().catch(() => ({}));
    const retry = Number(res.headers.get('retry-after'));
    throw new ApiError(
      res.status,
      typeof body?.code === 'string' ? body.code : 'error',
      Number.isFinite(retry) && retry > 0 ? retry : undefined,
      Array.isArray(body?.errors)
        ? body.errors.map((e: { field?: unknown }) => String(e?.field ?? ''))
        : undefined,
    );
  }

  const remember = (s: TSession) => {
    csrf = s.csrf_token;
    return s;
  };

  return {
    request: call,
    async signIn(email) {
      await call('POST', '/console/api/sign-in', { email });
    },
    async redeemLink(token) {
      return remember(await (await call('POST', '/console/api/sessions', { token })).json());
    },
    async session() {
      try {
        return remember(await (await call('GET', '/console/api/session')).json());
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 404)) return undefined;
        throw err;
      }
    },
    async signOut() {
      try {
        await call('POST', '/console/api/sign-out');
      } catch (err) {
        // 401: the session had already ended (signed out everywhere, expired), which is the
        // outcome asked for; only a failure to reach the service leaves the reader signed in.
        if (!(err instanceof ApiError && err.status === 401)) throw err;
      }
      csrf = '';
    },
    async listBundles(query) {
      const res = await call('GET', `/api/v2/bundles/?${bundleSearch(query)}`);
      return {
        bundles: await res.json(),
        pagination: parsePagination(res.headers.get('x-blueink-pagination')),
      };
    },
  };
}
