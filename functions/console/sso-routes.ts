// The console's single sign-on routes. Both are browser navigations, not API calls: the sign-in
// screen's form posts to start, the provider redirects back to the callback, and each answers a
// redirect (to the provider, or back to the console with a session or with `?sso=<why not>`,
// which the sign-in screen puts in words).
import {
  finishSsoSignIn,
  SSO_ATTEMPT_MINUTES,
  startSsoSignIn,
  type TSsoSignInDeps,
} from '#shared/domain/console/sso-sign-in';
import { ThrottledError, ValidationError } from '#shared/domain/errors';
import type { TRoute } from '#shared/http/router';
import {
  clearSsoCookie,
  cookieHeaderOf,
  setSessionCookie,
  setSsoCookie,
  ssoCookieOf,
} from '#shared/http/session-cookie';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The parameters a provider's answer may carry; anything else is not passed on to the library. */
const CALLBACK_PARAMS = ['code', 'state', 'iss', 'error', 'error_description', 'session_state'];

const back = (publicBaseUrl: string, reason: string, cookie: string) => ({
  status: 303,
  headers: { ...NO_STORE, Location: `${publicBaseUrl}/console/?sso=${reason}`, 'Set-Cookie': cookie },
});

export function ssoRoutes(depsOf: () => TSsoSignInDeps): TRoute[] {
  return [
    {
      method: 'POST',
      path: '/console/api/sso/start',
      handler: async (req) => {
        const deps = depsOf();
        let started: Awaited<ReturnType<typeof startSsoSignIn>>;
        try {
          started = await startSsoSignIn(deps, req.body, req.client);
        } catch (err) {
          if (err instanceof ValidationError)
            return back(deps.publicBaseUrl, 'invalid_email', clearSsoCookie(deps.publicBaseUrl));
          if (err instanceof ThrottledError)
            return back(deps.publicBaseUrl, 'throttled', clearSsoCookie(deps.publicBaseUrl));
          throw err;
        }
        if (started.kind !== 'redirect')
          return back(deps.publicBaseUrl, started.kind, clearSsoCookie(deps.publicBaseUrl));
        return {
          status: 303,
          headers: {
            ...NO_STORE,
            Location: started.url,
            'Set-Cookie': setSsoCookie(started.attemptId, deps.publicBaseUrl, SSO_ATTEMPT_MINUTES * 60),
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/console/api/sso/callback',
      handler: async (req) => {
        const deps = depsOf();
        const query = new URLSearchParams();
        for (const name of CALLBACK_PARAMS) {
          const value = req.query.get(name);
          if (value !== undefined) query.set(name, value);
        }
        const attemptId = ssoCookieOf(cookieHeaderOf({ cookie: req.header('cookie') }));
        const finished = await finishSsoSignIn(deps, attemptId, query, req.client);
        if (!finished.ok) {
          req.log.warn('console single sign-on refused', {
            reason: finished.reason,
            ...(finished.accountId ? { accountId: finished.accountId } : {}),
            ...(finished.detail ? { detail: finished.detail } : {}),
          });
          return back(deps.publicBaseUrl, finished.reason, clearSsoCookie(deps.publicBaseUrl));
        }
        const { opened } = finished;
        req.log.info('console signed in', {
          accountId: opened.account.id,
          userId: opened.user.id,
          method: 'sso',
        });
        return {
          status: 303,
          headers: {
            ...NO_STORE,
            Location: `${deps.publicBaseUrl}/console/`,
            'Set-Cookie': setSessionCookie(opened.sessionId, deps.publicBaseUrl),
          },
        };
      },
    },
  ];
}
