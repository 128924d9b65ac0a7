import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { inRequestScope } from '#shared/adapters/request-scope';
import type { TTelemetry } from '#shared/adapters/telemetry/telemetry';
import type { TConfig } from '#shared/config';
import type { TUsage, TUsageReader } from '#shared/domain/ports/accounts';
import type { TIdempotencyStore } from '#shared/domain/ports/idempotency';
import type { TMetrics } from '#shared/domain/ports/metrics';
import { loggablePath, type TLogger } from '#shared/logger';
import { readAuthContext, type TAuthContext } from './auth-context';
import { defaultBodyOptions, parseBody } from './body';
import { errorBody } from './error-body';
import { type THttpErrorShape, toHttpError } from './error-mapping';
import { NotAuthenticatedError } from './errors';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER, requestFingerprint } from './idempotency-key';
import { answerIdempotently } from './idempotent-request';
import { rateLimitHeaders } from './rate-limit-headers';
import type { TRequest, TResponse } from './request';
import { headerOf, queryOf, rawBodyOf, requestUrl } from './request';
import { createRouter, normalizePath, type TMatch, type TRoute } from './router';

type TEvent = APIGatewayProxyEvent;
type TResult = APIGatewayProxyResult;

/** Middlewares put what the handler needs on the invocation's context, as middy intends. */
interface TApiContext extends Context {
  started: number;
  requestId: string;
  log: TLogger;
  match?: TMatch;
  /** The caller's usage, read while the handler runs; undefined when it could not be read. */
  usage?: Promise<TUsage | undefined>;
}

type TMiddleware = MiddlewareObj<TEvent, TResult, Error, TApiContext>;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function toResult(res: TResponse, requestId: string): TResult {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...(res.headers ?? {}) };
  if (res.text !== undefined) return { statusCode: res.status, headers, body: res.text };
  if (res.binary !== undefined) {
    return { statusCode: res.status, headers, body: res.binary.toString('base64'), isBase64Encoded: true };
  }
  if (res.body === undefined) return { statusCode: res.status, headers, body: '' };
  headers['Content-Type'] = 'application/json';
  return { statusCode: res.status, headers, body: JSON.stringify(res.body) };
}

/**
 * Request id and access log; every log line of the request carries the id. The access log's
 * lines (answered and refused requests) are written at `level`: 'info' on AWS, 'debug' locally.
 */
function requestLogging(log: TLogger, level: 'debug' | 'info'): TMiddleware {
  return {
    before: ({ event, context }) => {
      context.started = Date.now();
      context.requestId = event.requestContext?.requestId ?? context.awsRequestId;
      context.log = log.child({ requestId: context.requestId });
    },
    after: ({ event, context, response }) => {
      context.log[level]('request', {
        method: event.httpMethod,
        path: loggablePath(event.path),
        status: response?.statusCode,
        ms: Date.now() - context.started,
        accountId: event.requestContext?.authorizer?.accountId,
      });
    },
  };
}

/**
 * Requests, server errors and latency by route: the route's pattern (`GET /bundles/{id:slug}`),
 * never the path itself, so ids and link tokens make no dimension values. Its onError runs after
 * the error responder's (middy runs onError last to first), so the status is the answered one.
 */
function requestMetrics(metrics: TMetrics): TMiddleware {
  const record: NonNullable<TMiddleware['after']> = ({ context, response }) => {
    const route = context.match ? `${context.match.route.method} ${context.match.route.path}` : 'unmatched';
    metrics.count('ApiRequests', { route });
    if ((response?.statusCode ?? 500) >= 500) metrics.count('ApiErrors', { route });
    metrics.duration('ApiLatency', Date.now() - context.started, { route });
  };
  return { after: record, onError: record };
}

/**
 * The one place an error becomes a response: the API's error body, no internals for 5xx. A
 * handler whose readers are signers words it for them (`localizeError`); the code stays.
 */
function errorResult(
  error: unknown,
  event: TEvent,
  context: TApiContext,
  localize?: TErrorLocalizer,
  accessLevel: 'debug' | 'info' = 'info',
): TResult {
  const mapped = toHttpError(error);
  const shape = localize ? localize(mapped, error, (name) => headerOf(event, name)) : mapped;
  const fields = { method: event.httpMethod, path: loggablePath(event.path), status: shape.status };
  if (shape.status >= 500) context.log.error('request failed', { ...fields, err: error });
  else context.log[accessLevel]('request refused', { ...fields, code: shape.code });
  return toResult(
    {
      status: shape.status,
      headers: shape.headers,
      body: errorBody(shape.code, shape.message, shape.fieldErrors),
    },
    context.requestId,
  );
}

/** Whatever the chain throws is answered by errorResult. */
function errorResponder(accessLevel: 'debug' | 'info', localize?: TErrorLocalizer): TMiddleware {
  return {
    onError: (request) => {
      request.response = errorResult(request.error, request.event, request.context, localize, accessLevel);
    },
  };
}

/**
 * A write under an Idempotency-Key (shared/http/idempotent-request.ts): the route runs at most
 * once per account and key, its answers below 500 (refusals included, made here by errorResult)
 * kept for retries; a server error is thrown on to the error responder and not kept.
 */
async function runIdempotently(
  store: TIdempotencyStore,
  event: TEvent,
  context: TApiContext,
  run: (retrySeed: string) => Promise<TResult>,
  accessLevel: 'debug' | 'info',
): Promise<TResult> {
  const key = checkIdempotencyKey(headerOf(event, IDEMPOTENCY_HEADER)!);
  const request = {
    accountId: readAuthContext(event).accountId,
    key,
    fingerprint: requestFingerprint(event.httpMethod, normalizePath(event.path), rawBodyOf(event)),
  };
  const remaining =
    typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 0;
  const deadline = remaining > 0 ? { deadline: Date.now() + remaining } : {};
  const retrySeed = JSON.stringify([request.accountId, request.key, request.fingerprint]);
  const answer = await answerIdempotently(
    { store, log: context.log },
    { ...request, ...deadline },
    async () => {
      let result: TResult;
      try {
        result = await run(retrySeed);
      } catch (err) {
        if (toHttpError(err).status >= 500) throw err;
        result = errorResult(err, event, context, undefined, accessLevel);
      }
      const { 'X-Request-Id': _id, ...headers } = (result.headers ?? {}) as Record<string, string>;
      return {
        status: result.statusCode,
        headers,
        body: result.body,
        ...(result.isBase64Encoded ? { isBase64Encoded: true } : {}),
      };
    },
  );
  return {
    statusCode: answer.status,
    headers: { ...answer.headers, 'X-Request-Id': context.requestId },
    body: answer.body,
    ...(answer.isBase64Encoded ? { isBase64Encoded: true } : {}),
  };
}

/**
 * X-RateLimit-* on every answer of a keyed API, read through the usage reader port (the usage
 * plan on AWS and its local stand-in alike). The read starts before the handler and runs beside
 * it; a failed read costs the headers, never the answer.
 */
function rateLimitHeadersOn(usage: TUsageReader): TMiddleware {
  const addHeaders: NonNullable<TMiddleware['after']> = async ({ context, response }) => {
    const u = await context.usage;
    if (u && response) response.headers = { ...response.headers, ...rateLimitHeaders(u) };
  };
  return {
    before: ({ event, context }) => {
      let key: string;
      try {
        key = readAuthContext(event).usageKeyId;
      } catch {
        return; // no caller to report on; the handler refuses the request
      }
      context.usage = usage.usageFor(key).catch((err: Error) => {
        context.log.warn('rate limit headers left out: usage not readable', { error: err.message });
        return undefined;
      });
    },
    after: addHeaders,
    onError: addHeaders,
  };
}

function routing(routes: TRoute[]): TMiddleware {
  const match = createRouter(routes);
  return {
    before: ({ event, context }) => {
      context.match = match(event.httpMethod.toUpperCase(), normalizePath(event.path));
    },
  };
}

/** For handlers without an authorizer (the signing pages): reading `auth` there is a bug. */
const NO_AUTH = new Proxy({} as TAuthContext, {
  get() {
    throw new NotAuthenticatedError();
  },
});

export function buildRequest(
  event: TEvent,
  match: TMatch,
  log: TLogger,
  requestId: string,
  anonymous = false,
  publicBaseUrl?: string,
  viewerAddressHeader?: string,
): TRequest {
  const method = event.httpMethod.toUpperCase();
  const body = METHODS_WITH_BODY.has(method)
    ? parseBody(rawBodyOf(event), headerOf(event, 'content-type'), {
        ...defaultBodyOptions,
        ...match.route.body,
      })
    : undefined;
  return {
    method,
    path: normalizePath(event.path),
    params: match.params,
    query: queryOf(event),
    body,
    auth: anonymous ? NO_AUTH : readAuthContext(event),
    requestId,
    log,
    url: requestUrl(event, publicBaseUrl),
    client: {
      ip:
        (viewerAddressHeader && headerOf(event, viewerAddressHeader)) ||
        (event.requestContext?.identity?.sourceIp ?? ''),
      userAgent: headerOf(event, 'user-agent') ?? '',
    },
    header: (name) => headerOf(event, name),
  };
}

/**
 * A Lambda handler for one endpoint group: the telemetry's middlewares (on Lambda: Powertools'
 * tracer, Lambda context in the logs, the metrics flush), logging, request metrics, the rate limit
 * headers, the error body and routing as middy middlewares; the handler itself only parses the request and calls the route's
 * use case.
 */
export type TApiHandler = (event: TEvent, context: Context) => Promise<TResult>;

/**
 * Keyed APIs (behind the authorizer and the usage plan) pass the usage reader their rate limit
 * headers come from, a cached one (cachedUsageReader); the public pages are `anonymous`.
 */
/** Rewords an error's message and field messages for the caller (the public pages: their language). */
export type TErrorLocalizer = (
  shape: THttpErrorShape,
  err: unknown,
  header: (name: string) => string | undefined,
) => THttpErrorShape;

export type TApiHandlerOptions = (
  | { anonymous: true }
  | {
      anonymous?: false;
      usage: TUsageReader;
      /** Where Idempotency-Key records are kept: required once the API has a POST, PUT or PATCH. */
      idempotency?: TIdempotencyStore;
    }
) & {
  localizeError?: TErrorLocalizer;
  /**
   * The service's public base URL, read per request (the local runtime learns its port only once
   * it listens): `req.url`, and so Link headers, are built on it, never on the client's Host.
   */
  config: Pick<TConfig, 'publicBaseUrl' | 'viewerAddressHeader' | 'accessLogLevel'>;
};

export function createApiHandler(
  routes: TRoute[],
  telemetry: TTelemetry,
  options: TApiHandlerOptions,
): TApiHandler {
  const idempotency = options.anonymous ? undefined : options.idempotency;
  if (!options.anonymous && !idempotency && routes.some((r) => METHODS_WITH_BODY.has(r.method))) {
    throw new Error('A keyed API with POST, PUT or PATCH routes needs an idempotency store.');
  }
  let chain = middy<TEvent, TResult, Error, TApiContext>();
  for (const m of telemetry.middlewares) chain = chain.use(m);
  const accessLevel = options.config.accessLogLevel ?? 'info';
  chain = chain.use(requestLogging(telemetry.log, accessLevel)).use(requestMetrics(telemetry.metrics));
  // Before the error responder: middy runs onError last to first, so the headers go onto the
  // error body it makes as well.
  if (!options.anonymous) chain = chain.use(rateLimitHeadersOn(options.usage));
  const handler = chain
    .use(errorResponder(accessLevel, options.localizeError))
    .use(routing(routes))
    .handler(async (event, context) => {
      const match = context.match!;
      const run = async (retrySeed?: string) => {
        const req = buildRequest(
          event,
          match,
          context.log,
          context.requestId,
          options.anonymous,
          options.config.publicBaseUrl,
          options.config.viewerAddressHeader,
        );
        return toResult(
          await match.route.handler(retrySeed === undefined ? req : { ...req, retrySeed }),
          context.requestId,
        );
      };
      const keyed = idempotency && METHODS_WITH_BODY.has(match.route.method) && !match.route.secretAnswer;
      if (keyed && headerOf(event, IDEMPOTENCY_HEADER) !== undefined) {
        return runIdempotently(idempotency, event, context, run, accessLevel);
      }
      return run(undefined);
    });
  // Each request its own scope: what it read once it does not read again (request-scope.ts).
  return (event, context) => inRequestScope(() => handler(event, context as TApiContext));
}
