// The console's passkey endpoints: a signed-in user's own passkeys (the session and, for a
// change, its CSRF token authorize), and signing in with one (anonymous, throttled).
import {
  addPasskey,
  listPasskeys,
  passkeyRegistrationOptions,
  removePasskey,
  type TSignedIn,
} from '#shared/domain/console/manage-passkeys';
import {
  passkeySignInOptions,
  signInWithPasskey,
  type TPasskeySignInDeps,
} from '#shared/domain/console/sign-in-with-passkey';
import { CsrfFailedError } from '#shared/domain/errors';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { csrfHolds, setSessionCookie } from '#shared/http/session-cookie';
import { passkeyResponse } from '#shared/responses/console-passkey';
import { consoleSessionResponse } from '#shared/responses/console-session';

const NO_STORE = { 'Cache-Control': 'no-store' };

export function passkeyRoutes(opts: {
  /** Made per request: the public base URL (the relying party) is known only once the service listens. */
  deps: () => TPasskeySignInDeps;
  /** The request's live session, or a 401. */
  current: (req: TRequest) => Promise<{ sessionId: string; session: TSignedIn }>;
  publicBaseUrl: () => string | undefined;
}): TRoute[] {
  const { current } = opts;
  /** The signed-in user, having checked the CSRF token of a change. */
  const signedIn = async (req: TRequest): Promise<TSignedIn> => {
    const { sessionId, session } = await current(req);
    if (!csrfHolds(req.method, sessionId, req.header('x-csrf-token'))) throw new CsrfFailedError();
    return { accountId: session.accountId, userId: session.userId };
  };
  const json = (status: number, body: unknown): TResponse => ({ status, body, headers: NO_STORE });

  return [
    {
      method: 'GET',
      path: '/console/api/passkeys',
      handler: async (req) =>
        json(200, (await listPasskeys(opts.deps(), await signedIn(req))).map(passkeyResponse)),
    },
    {
      method: 'POST',
      path: '/console/api/passkeys/options',
      handler: async (req) => json(200, await passkeyRegistrationOptions(opts.deps(), await signedIn(req))),
    },
    {
      method: 'POST',
      path: '/console/api/passkeys',
      handler: async (req) => {
        const who = await signedIn(req);
        const added = await addPasskey(opts.deps(), who, req.body, req.client);
        req.log.info('console passkey added', { ...who, passkeyId: added.id });
        return json(201, passkeyResponse(added));
      },
    },
    {
      method: 'DELETE',
      path: '/console/api/passkeys/{id}',
      handler: async (req) => {
        const who = await signedIn(req);
        await removePasskey(opts.deps(), who, req.params.id ?? '', req.client);
        req.log.info('console passkey removed', { ...who, passkeyId: req.params.id });
        return { status: 204, headers: NO_STORE };
      },
    },
    {
      method: 'POST',
      path: '/console/api/passkeys/sign-in/options',
      handler: async (req) => json(200, await passkeySignInOptions(opts.deps(), req.client)),
    },
    {
      method: 'POST',
      path: '/console/api/passkeys/sign-in',
      handler: async (req) => {
        const opened = await signInWithPasskey(opts.deps(), req.body, req.client);
        req.log.info('console signed in with a passkey', {
          accountId: opened.account.id,
          userId: opened.user.id,
        });
        return {
          status: 201,
          body: consoleSessionResponse(opened.sessionId, opened.session, opened.user, opened.account),
          headers: { ...NO_STORE, 'Set-Cookie': setSessionCookie(opened.sessionId, opts.publicBaseUrl()) },
        };
      },
    },
  ];
}
