import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { TLogger } from '#shared/logger';
import type { TAuthContext } from './auth-context';

export interface TQuery {
  get(name: string): string | undefined;
  all(name: string): string[];
}

/** What a route handler sees: the parsed request, never the raw API Gateway event. */
export interface TRequest {
  method: string;
  /** Path below /api/v2, without the trailing slash: `/persons/123`. */
  path: string;
  params: Record<string, string>;
  query: TQuery;
  body: unknown;
  auth: TAuthContext;
  requestId: string;
  log: TLogger;
  /** The absolute URL the client called, without the query, for Link headers. */
  url: URL;
  /** Who called, as API Gateway saw it: kept as evidence by the signing steps. */
  client: { ip: string; userAgent: string };
  /** A request header (case-insensitive). */
  header(name: string): string | undefined;
  /**
   * Present when the request carries an Idempotency-Key: the account, the key and the request's
   * fingerprint. A create derives its new item's id from it (derivedSlug, derivedUuid), so a
   * retry that runs the work again (its first run crashed or outlived its claim) meets the item
   * the first run made and answers it, and the item's conditional put lets only one exist.
   */
  retrySeed?: string;
}

export interface TResponse {
  status: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (pages, scripts): set its Content-Type in `headers`. */
  text?: string;
  /** Sent as is, base64 in the Lambda result (images, fonts, PDFs): Content-Type in `headers`. */
  binary?: Buffer;
  headers?: Record<string, string>;
}

export function queryOf(event: APIGatewayProxyEvent): TQuery {
  const multi = event.multiValueQueryStringParameters ?? {};
  const single = event.queryStringParameters ?? {};
  return {
    get: (name) => multi[name]?.[0] ?? single[name] ?? undefined,
    all: (name) => multi[name] ?? (single[name] !== undefined ? [single[name] as string] : []),
  };
}

export function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) {
    if (k.toLowerCase() === lower && v !== undefined) return v;
  }
  return undefined;
}

/**
 * The URL the client called, without its query, for Link headers and page links. On the
 * configured public base URL (the stage URL on AWS, the runtime's own locally), so no client can
 * make the service answer links to a host of its choosing through the Host header. Without one
 * (a function not given it), on the domain API Gateway says it was called on, which is one of
 * this API's own (a request naming another is never routed here), else localhost: never on Host.
 */
export function requestUrl(event: APIGatewayProxyEvent, publicBaseUrl?: string): URL {
  if (publicBaseUrl) {
    // event.path is below the stage (/api/v2/...); the public base URL names the stage.
    const base = publicBaseUrl.replace(/\/+$/, '');
    try {
      return new URL(`${base}${event.path}`);
    } catch {
      return new URL(`${base}/`);
    }
  }
  // X-Forwarded-Proto is API Gateway's own (the local gateway drops a client's).
  const proto = headerOf(event, 'x-forwarded-proto') === 'http' ? 'http' : 'https';
  // requestContext.path carries the stage prefix on AWS (/prod/api/v2/...), event.path does not.
  const path = event.requestContext?.path ?? event.path;
  const domain = event.requestContext?.domainName || 'localhost';
  try {
    return new URL(`${proto}://${domain}${path}`);
  } catch {
    return new URL(`${proto}://localhost${path.startsWith('/') ? path : '/'}`);
  }
}

export function rawBodyOf(event: APIGatewayProxyEvent): Buffer | undefined {
  if (event.body === null || event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}
