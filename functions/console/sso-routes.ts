// The console's single sign-on routes: the sign-in screen calls start and goes where it says (the
// account's provider, or back to the console with `?sso=<why not>`); the provider redirects the
// browser back to the callback, which redirects to the console with a session or with
// `?sso=<why not>`, which the sign-in screen puts in words.
import {
  finishSsoSignIn,
  SSO_ATTEMPT_MINUTES,
  startSsoSignIn,
  type TSsoSignInDeps,
} from '#shared/domain/console/sso-sign-in';
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

/** The console's sign-in screen, told why single sign-on did not sign the reader in. */
const backTo = (publicBaseUrl: string, reason: string) => `${publicBaseUrl}/console/?sso=${reason}`;

const back = (publicBaseUrl: string, reason: string, cookie: string) => ({
  status: 303,
  headers: { ...NO_STORE, Location: backTo(publicBaseUrl, reason), 'Set-Cookie': cookie },
});

export function ssoRoutes(depsOf: () => TSsoSignInDeps): TRoute[] {
  return [
    {
      // Answers where the browser goes next rather than redirecting: the console page's CSP
      // (`form-action 'self'`) would stop a form post redirected to another origin, so the page
      // calls this and navigates itself. The same shape whatever the address: a provider's URL,
      // or the console saying why not.
      method: 'POST',
      path: '/console/api/sso/start',
      handler: async (req) => {
        const deps = depsOf();
        const started = await startSsoSignIn(deps, req.body, req.client);
        if (started.kind !== 'redirect') {
          return {
            status: 200,
            body: { url: backTo(deps.publicBaseUrl, started.kind) },
            headers: { ...NO_STORE, 'Set-Cookie': clearSsoCookie(deps.publicBaseUrl) },
          };
        }
        return {
          status: 200,
          body: { url: started.url },
          headers: {
            ...NO_STORE,
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
