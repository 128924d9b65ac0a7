import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { errorBody, type TErrorCode } from '#shared/http/error-body';
import { rateLimitHeaders } from '#shared/http/rate-limit-headers';
import { API_PREFIX } from '#shared/http/router';
import type { TLogger } from '#shared/logger';
import { API_ROUTES, PUBLIC_API_ROUTES, PUBLIC_ROUTES, type TFunctionName } from '../api-routes';
import { isPublicApiPath, PUBLIC_PATH_LIMITED_ANSWERS, publicPathGroupOf } from '../public-path-limits';
import { invoke } from './invocation';
import { lambdaContext } from './lambda-context';
import { authorizationOf, authorizerEvent, proxyEvent, type TIncoming } from './proxy-event';
import type { PublicPathLimiter } from './public-path-limiter';
import { requestTarget } from './request-target';
import type { LocalUsagePlan } from './usage-plan';

export type TApiFunction = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type TAuthorizerFunction = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface TGatewayOptions {
  host: string;
  port: number;
  stage: string;
  plan: LocalUsagePlan;
  /** The stack's WAF rules on the public token paths (per client address). */
  publicPaths: PublicPathLimiter;
  /** API Gateway caches an authorizer's answer per Authorization header for this long. */
  authorizerTtlMs: number;
  /** An API function's timeout (ms); default 29 s. */
  functionTimeoutMs?: number;
  /** API Gateway's own payload limit. */
  maxBodyBytes: number;
  log: TLogger;
  authorizer: TAuthorizerFunction;
  functions: Record<TFunctionName, TApiFunction>;
  /** Pages outside /api/v2 (the local mailbox); answers true when it handled the request. */
  pages?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

class TooLarge extends Error {}

/**
 * Reads the body up to `limit` bytes. Past it, stops listening and rejects without destroying
 * the request: the caller answers 413 first and closes the connection after the answer is sent.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return reject(new TooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.off('data', onData);
      req.pause();
      reject(new TooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The error answers API Gateway itself gives, rewritten as the stack's gateway responses do. */
function gatewayError(
  res: ServerResponse,
  requestId: string,
  status: number,
  code: TErrorCode,
  message: string,
  headers: Record<string, string> = {},
) {
  // The stack's 401 gateway responses name the scheme, as DRF-style APIs do.
  const challenge = status === 401 ? { 'www-authenticate': 'Token' } : {};
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': requestId,
    ...challenge,
    ...headers,
  });
  res.end(JSON.stringify(errorBody(code, message)));
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = v.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/**
 * API Gateway, locally: routes /api/v2/<resource> to its function, runs the REQUEST authorizer
 * first (answers cached per Authorization header), enforces the usage plan, then invokes the
 * function with the proxy event API Gateway would build.
 */
export async function startApiGateway(opts: TGatewayOptions) {
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();

  async function authorize(incoming: TIncoming, header: string): Promise<APIGatewayAuthorizerResult> {
    const hit = cache.get(header);
    if (hit && hit.expires > Date.now()) return hit.result;
    const result = await invoke('authorizer', () => opts.authorizer(authorizerEvent(incoming)));
    if (cache.size > 10_000) cache.clear();
    cache.set(header, { result, expires: Date.now() + opts.authorizerTtlMs });
    return result;
  }

  /** The request body, or undefined once a 413 has been answered (the socket closes after it). */
  async function readBodyOr413(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
  ): Promise<Buffer | undefined> {
    try {
      return await readBody(req, opts.maxBodyBytes);
    } catch (err) {
      if (!(err instanceof TooLarge)) throw err;
      res.on('finish', () => req.socket.destroy());
      gatewayError(res, requestId, 413, 'invalid', 'Request body is too large.', { connection: 'close' });
      return undefined;
    }
  }

  /** What API Gateway answers when the function itself crashes: 502 (DEFAULT_5XX rewritten). */
  async function invokeFunction(
    res: ServerResponse,
    requestId: string,
    fn: TFunctionName,
    event: ReturnType<typeof proxyEvent>,
  ) {
    try {
      writeResult(
        res,
        await invoke(fn, () =>
          opts.functions[fn](event, lambdaContext(fn, requestId, opts.functionTimeoutMs)),
        ),
      );
    } catch (err) {
      opts.log.error('function failed', { requestId, fn, err });
      gatewayError(res, requestId, 502, 'error', 'A server error occurred.');
    }
  }

  /**
   * The WAF's answer to an address over its limit on a public token path: 429, Retry-After, and
   * the JSON error body on API paths or a short page elsewhere (the same bodies as the WebACL's).
   * The address is the socket's, which the proxy event also gives as requestContext.identity.sourceIp.
   */
  function overPublicPathLimit(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string) {
    const group = publicPathGroupOf(url.pathname);
    if (!group) return false;
    const admission = opts.publicPaths.admit(group, req.socket.remoteAddress ?? '127.0.0.1');
    if (admission.ok) return false;
    const api = isPublicApiPath(url.pathname);
    res.writeHead(429, {
      'content-type': api ? 'application/json' : 'text/html; charset=utf-8',
      'retry-after': String(admission.retryAfterSeconds),
      'x-request-id': requestId,
    });
    res.end(api ? PUBLIC_PATH_LIMITED_ANSWERS.json : PUBLIC_PATH_LIMITED_ANSWERS.page);
    return true;
  }

  /** No authorizer and no usage plan, as the stack declares these resources. */
  async function invokePublic(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    requestId: string,
    fn: TFunctionName,
    top: string,
  ) {
    const body = await readBodyOr413(req, res, requestId);
    if (!body) return;
    const rest = url.pathname.slice(top.length + 1);
    const incoming: TIncoming = {
      req,
      url,
      body,
      requestId,
      resource: rest === '' || rest === '/' ? `/${top}` : `/${top}/{proxy+}`,
      stage: opts.stage,
    };
    await invokeFunction(res, requestId, fn, proxyEvent(incoming, {}));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const requestId = randomUUID();
    // Only the path and query matter here; the Host header is the client's and may be anything.
    const { url, rawPath } = requestTarget(req.url);
    const inApi = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
    // The URL parser resolves dot segments (`/api/v2/x/../../`, `%2e%2e` too) and reads `\` as
    // `/`: a path the client sent beginning /api/v2 answers as the API does, with its error body,
    // wherever it leads (`/api/v2\..\..\`, `/api/v2..`), as every unknown path does on AWS.
    if (!inApi && rawPath.startsWith(API_PREFIX)) {
      return gatewayError(res, requestId, 404, 'not_found', 'Not found.');
    }
    // The local pages first: the console's files sit beside its session endpoints under
    // /console/, as CloudFront will put S3 beside API Gateway; the pages leave /console/api/ alone.
    if (!inApi && opts.pages && (await opts.pages(req, res, url))) return;
    // A public resource may be nested (`console/api`): the longest one the path is under wins.
    const open = PUBLIC_ROUTES.filter(
      (r) => url.pathname === `/${r.resource}` || url.pathname.startsWith(`/${r.resource}/`),
    ).sort((a, b) => b.resource.length - a.resource.length)[0];
    if (!inApi && open) {
      if (overPublicPathLimit(req, res, url, requestId)) return;
      return invokePublic(req, res, url, requestId, open.fn, open.resource);
    }
    if (!inApi) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found. The API is under /api/v2/; messages sent locally are at /dev/mailbox.\n');
      return;
    }
    const segment = url.pathname.slice(API_PREFIX.length).split('/')[1] ?? '';
    // A keyless resource below /api/v2 (the API description), without authorizer or usage plan.
    const openApi = PUBLIC_API_ROUTES.find((r) => r.resource === segment);
    if (openApi)
      return invokePublic(req, res, url, requestId, openApi.fn, `${API_PREFIX.slice(1)}/${segment}`);
    const route = API_ROUTES.find((r) => r.resource === segment);
    if (!route) return gatewayError(res, requestId, 404, 'not_found', 'Not found.');

    const body = await readBodyOr413(req, res, requestId);
    if (!body) return;
    const rest = url.pathname.slice(API_PREFIX.length + segment.length + 1);
    const incoming: TIncoming = {
      req,
      url,
      body,
      requestId,
      resource: rest === '' ? `${API_PREFIX}/${segment}` : `${API_PREFIX}/${segment}/{proxy+}`,
      stage: opts.stage,
    };

    // API Gateway's own answer to a missing or refused key, before any function runs.
    const notAuthenticated = () =>
      gatewayError(res, requestId, 401, 'not_authenticated', 'Authentication credentials were not provided.');
    const header = authorizationOf(req);
    // Without a key, a console session cookie may stand in (the authorizer checks it). As on AWS,
    // where the result cache is off for this reason, a session's answer is never cached: a
    // session signed out is refused on the very next request.
    const withSession = (!header || header.trim() === '') && req.headers.cookie !== undefined;
    if ((!header || header.trim() === '') && !withSession) return notAuthenticated();
    let auth: APIGatewayAuthorizerResult;
    try {
      auth = withSession
        ? await invoke('authorizer', () => opts.authorizer(authorizerEvent(incoming)))
        : await authorize(incoming, header!);
    } catch (err) {
      if ((err as Error).message === 'Unauthorized') {
        return notAuthenticated();
      }
      opts.log.error('authorizer failed', { requestId, err });
      return gatewayError(res, requestId, 500, 'error', 'A server error occurred.');
    }
    const allowed = auth.policyDocument.Statement.every((s) => s.Effect === 'Allow');
    if (!allowed) return gatewayError(res, requestId, 401, 'authentication_failed', 'Invalid token.');

    const context = { ...(auth.context ?? {}), principalId: auth.principalId };
    const usageKeyId = String(auth.context?.usageKeyId ?? auth.usageIdentifierKey ?? '');
    // API Gateway's INVALID_API_KEY: the key was deleted from the plan (revoked), whatever the cache says.
    if (opts.plan.isDeleted(usageKeyId))
      return gatewayError(res, requestId, 401, 'authentication_failed', 'Invalid token.');
    const now = new Date();
    const admission = opts.plan.admit(usageKeyId, now);
    if (!admission.ok) {
      // The function's middleware adds the rate limit headers to its answers; this answer is the
      // gateway's own, so it adds them here, from the same plan.
      return gatewayError(res, requestId, 429, 'throttled', 'Request was throttled.', {
        'retry-after': String(admission.retryAfterSeconds),
        ...rateLimitHeaders(opts.plan.standing(usageKeyId, now)),
      });
    }

    await invokeFunction(res, requestId, route.fn, proxyEvent(incoming, context));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      opts.log.error('local gateway failed', { err });
      if (!res.headersSent) gatewayError(res, 'none', 500, 'error', 'A server error occurred.');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  // Requests Node cannot even parse (headers over 16 KiB, malformed request lines) get the
  // error body too, as API Gateway's own answers do.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(
      tooLarge
        ? errorBody('invalid', 'Request header fields are too large.')
        : errorBody('parse_error', 'The request could not be parsed.'),
    );
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    port: bound.port,
    /** Where it listens, as the OS reports it. */
    bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
