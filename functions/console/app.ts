import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSesClient, createSqsClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { createPasskeyStore } from '#shared/adapters/dynamodb/passkey-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createPortalCounterStore } from '#shared/adapters/dynamodb/portal-counter-store';
import { createSsoStore } from '#shared/adapters/dynamodb/sso-store';
import { createUserAdminStore } from '#shared/adapters/dynamodb/user-admin-store';
import { createOidcClient } from '#shared/adapters/oidc/oidc-client';
import { createSecretCipher } from '#shared/adapters/secrets/cipher';
import { createSesMailer } from '#shared/adapters/ses/ses-mailer';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { randomIds, systemClock } from '#shared/adapters/system';
import type { TTelemetry } from '#shared/adapters/telemetry/telemetry';
import { functionBase, type TFunctionOptions } from '#shared/composition/function-base';
import type { TConfig } from '#shared/config';
import { checkConsoleSession } from '#shared/domain/console/check-console-session';
import { openConsoleSession } from '#shared/domain/console/open-console-session';
import { relyingPartyOf } from '#shared/domain/console/passkey';
import {
  requestSignInLink,
  SIGN_IN_LIMITS,
  type TSignInLimits,
} from '#shared/domain/console/request-sign-in-link';
import { signOut } from '#shared/domain/console/sign-out';
import type { TUsageKeys } from '#shared/domain/console/usage-key';
import { CsrfFailedError } from '#shared/domain/errors';
import { DEFAULT_MAIL_FROM } from '#shared/domain/notifications/notification';
import type { TMailer } from '#shared/domain/ports/notifications';
import { acceptInvitation } from '#shared/domain/users/accept-invitation';
import { createApiHandler, type TApiHandler } from '#shared/http/api-handler';
import { NotAuthenticatedError } from '#shared/http/errors';
import type { TRequest } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import {
  clearSessionCookie,
  cookieHeaderOf,
  csrfHolds,
  sessionCookieOf,
  setSessionCookie,
} from '#shared/http/session-cookie';
import { consoleSessionResponse } from '#shared/responses/console-session';
import { buildPeopleAdminHandler } from './admin-app';
import { passkeyRoutes } from './passkey-routes';
import { ssoRoutes } from './sso-routes';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Composition root of the console's function: its sign-in API under /console/api (no API key:
 * the sign-in link, the invitation and the session cookie authenticate), and the admin API of
 * the account's people below /api/v2 (admin-app.ts: users, invitations, teams, the security log,
 * behind the authorizer like any keyed route). The console's pages are served elsewhere.
 */
export function buildConsoleHandler(
  opts: TFunctionOptions & {
    mailer?: TMailer;
    /** Tests pass smaller limits; the deployed service uses SIGN_IN_LIMITS. */
    signInLimits?: TSignInLimits;
    /** On AWS: registers the account's console usage key with the usage plan. */
    usageKeys?: TUsageKeys;
  },
) {
  const { config, db, telemetry } = functionBase(opts);
  const signIn = buildSignInHandler(opts, config, db, telemetry);
  const admin = buildPeopleAdminHandler({
    config,
    db,
    telemetry,
    mailer: mailerOf(opts, config),
    mailFrom: config.mail?.from ?? DEFAULT_MAIL_FROM,
  });
  const handler: TApiHandler = (event, context) =>
    (event.path.startsWith('/console/api') ? signIn : admin)(event, context);
  return handler;
}

function mailerOf(opts: { mailer?: TMailer }, config: TConfig): TMailer {
  return (
    opts.mailer ??
    createSesMailer(createSesClient(config), {
      ...(config.mail?.configurationSet ? { configurationSetName: config.mail.configurationSet } : {}),
    })
  );
}

function buildSignInHandler(
  opts: Parameters<typeof buildConsoleHandler>[0],
  config: TConfig,
  db: DynamoDBDocumentClient,
  telemetry: TTelemetry,
) {
  const accounts = createAccountStore(db, config.tableName);
  const store = createConsoleStore(db, config.tableName);
  const passkeys = createPasskeyStore(db, config.tableName);
  // The sign-in mail is queued for the notifications worker (mailSignInLinks), which sends it.
  const queue = createSqsQueue(createSqsClient(config), config.queues ?? {});
  const base = {
    console: store,
    accounts,
    clock: systemClock,
    ids: randomIds,
    ...(opts.usageKeys ? { usageKeys: opts.usageKeys } : {}),
  };
  // Single sign-on: the account's provider, its secret opened per request by the secrets cipher.
  const sso = createSsoStore(db, config.tableName);
  const cipher = createSecretCipher(config);
  const oidc = createOidcClient(config.fetch ?? { allowHttp: false, allowLoopback: false });
  const cookieOf = (req: TRequest) => sessionCookieOf(cookieHeaderOf({ cookie: req.header('cookie') }));

  /** The request's live session, or 401. */
  const current = async (req: TRequest) => {
    const sessionId = cookieOf(req);
    const checked = await checkConsoleSession(base, sessionId);
    if (!checked || !sessionId) throw new NotAuthenticatedError();
    return { sessionId, ...checked };
  };

  const signOutRoute = (path: string, everywhere: boolean): TRoute => ({
    method: 'POST',
    path,
    handler: async (req) => {
      const { sessionId, session } = await current(req);
      if (!csrfHolds(req.method, sessionId, req.header('x-csrf-token'))) throw new CsrfFailedError();
      await signOut(base, sessionId, session, req.client, everywhere);
      return {
        status: 204,
        headers: { ...NO_STORE, 'Set-Cookie': clearSessionCookie(config.publicBaseUrl) },
      };
    },
  });

  const routes: TRoute[] = [
    {
      method: 'POST',
      path: '/console/api/sign-in',
      handler: async (req) => {
        await requestSignInLink(
          {
            counters: createPortalCounterStore(db, config.tableName),
            queue,
            clock: systemClock,
            limits: opts.signInLimits ?? SIGN_IN_LIMITS,
          },
          req.body,
          req.client,
        );
        return { status: 202, body: {}, headers: NO_STORE };
      },
    },
    {
      method: 'POST',
      path: '/console/api/sessions',
      handler: async (req) => {
        const opened = await openConsoleSession(base, req.body, req.client);
        req.log.info('console signed in', { accountId: opened.account.id, userId: opened.user.id });
        return {
          status: 201,
          body: consoleSessionResponse(opened.sessionId, opened.session, opened.user, opened.account),
          headers: { ...NO_STORE, 'Set-Cookie': setSessionCookie(opened.sessionId, config.publicBaseUrl) },
        };
      },
    },
    {
      method: 'GET',
      path: '/console/api/session',
      handler: async (req) => {
        const { sessionId, session, renewed } = await current(req);
        const [user, account] = await Promise.all([
          accounts.getUser(session.accountId, session.userId),
          accounts.getAccount(session.accountId),
        ]);
        if (!user || !account) throw new NotAuthenticatedError();
        return {
          status: 200,
          body: consoleSessionResponse(sessionId, session, user, account),
          headers: {
            ...NO_STORE,
            ...(renewed ? { 'Set-Cookie': setSessionCookie(sessionId, config.publicBaseUrl) } : {}),
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/console/api/invitations/accept',
      handler: async (req) => {
        const opened = await acceptInvitation(
          {
            ...base,
            users: createUserAdminStore(db, config.tableName),
            persons: createPersonStore(db, config.tableName),
          },
          req.body,
          req.client,
        );
        req.log.info('console invitation accepted', { accountId: opened.account.id, userId: opened.user.id });
        return {
          status: 201,
          body: consoleSessionResponse(opened.sessionId, opened.session, opened.user, opened.account),
          headers: { ...NO_STORE, 'Set-Cookie': setSessionCookie(opened.sessionId, config.publicBaseUrl) },
        };
      },
    },
    signOutRoute('/console/api/sign-out', false),
    signOutRoute('/console/api/sign-out-everywhere', true),
    ...ssoRoutes(() => ({
      ...base,
      sso,
      oidc,
      cipher,
      counters: createPortalCounterStore(db, config.tableName),
      limits: opts.signInLimits ?? SIGN_IN_LIMITS,
      publicBaseUrl: config.publicBaseUrl ?? '',
    })),
  ];
  routes.push(
    ...passkeyRoutes({
      deps: () => ({
        ...base,
        passkeys,
        counters: createPortalCounterStore(db, config.tableName),
        limits: opts.signInLimits ?? SIGN_IN_LIMITS,
        relyingParty: relyingPartyOf(config.publicBaseUrl ?? ''),
      }),
      current,
      publicBaseUrl: () => config.publicBaseUrl,
    }),
  );
  return createApiHandler(routes, telemetry, { anonymous: true, config });
}
