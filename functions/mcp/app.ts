import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { errorBody, type TErrorCode } from '#shared/http/error-body';
import { API_PREFIX } from '#shared/http/router';
import { createEsignApi } from '#shared/mcp/esign-api';
import { createEsignMcpServer } from '#shared/mcp/server';
import { apiKeyOf } from './api-key-header';
import { createKeyCheck } from './key-check';

/** A create request with its PDF inline may be as large as the API takes (BUNDLE_LIMITS.requestBytes). */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

/** The request headers the MCP transport reads; nothing else of the client's is passed on. */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

function answer(
  status: number,
  code: TErrorCode,
  message: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(errorBody(code, message)),
  };
}

function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

/**
 * Composition root of the MCP function: the MCP server (shared/mcp/server.ts) over streamable
 * HTTP at `/mcp`, stateless (a fresh server and transport per request, no session: any Lambda
 * instance answers any request) with JSON answers instead of event streams. The caller's API key
 * (`Token` or `Bearer`) is checked by the API first, then given to the tools, which call the
 * API at the service's own public base URL, never at an address the request names.
 */
export function buildMcpHandler(opts: Omit<TFunctionOptions, 'db'> & { fetch?: typeof fetch }) {
  const { config } = opts;
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const checkKey = createKeyCheck({ ...(opts.fetch ? { fetch: opts.fetch } : {}) });

  // One access-log line per request, as the API's handlers write: never a header or the body.
  return withTelemetry(telemetry, async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const started = Date.now();
    const result = await serve(event);
    // As the API's handlers count: a request no route takes (another path, or a 405) is `unmatched`.
    const route = event.resource === '/mcp' && event.httpMethod === 'POST' ? 'POST /mcp' : 'unmatched';
    metrics.count('ApiRequests', { route });
    if (result.statusCode >= 500) metrics.count('ApiErrors', { route });
    metrics.duration('ApiLatency', Date.now() - started, { route });
    log[config.accessLogLevel ?? 'info']('request', {
      requestId: event.requestContext?.requestId,
      method: event.httpMethod,
      path: '/mcp',
      status: result.statusCode,
      ms: Date.now() - started,
    });
    return result;
  });

  async function serve(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
    const requestId = event.requestContext?.requestId;
    // Only /mcp itself: the catch-all below it is the stack's, as for every top-level resource.
    if (event.resource !== '/mcp') return answer(404, 'not_found', 'Not found.');
    // Stateless: no event stream to open (GET) and no session to end (DELETE).
    if (event.httpMethod !== 'POST') {
      return answer(405, 'method_not_allowed', `Method "${event.httpMethod}" not allowed.`, {
        allow: 'POST',
      });
    }
    const auth = apiKeyOf(headerOf(event, 'authorization'));
    if (auth === 'missing') {
      return answer(401, 'not_authenticated', 'Authentication credentials were not provided.', {
        'www-authenticate': 'Token',
      });
    }
    if (auth === 'malformed') {
      return answer(401, 'authentication_failed', 'Invalid token.', { 'www-authenticate': 'Token' });
    }
    // Read per request: locally the base URL is known only once the runtime listens.
    const apiUrl = `${config.publicBaseUrl ?? ''}${API_PREFIX}`;
    const refused = await checkKey(apiUrl, auth.key);
    if (refused) return { statusCode: refused.status, headers: refused.headers, body: refused.body };

    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = headerOf(event, name);
      if (value !== undefined) headers.set(name, value);
    }
    const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : undefined;
    const server = createEsignMcpServer(
      createEsignApi({ baseUrl: apiUrl, apiKey: auth.key, ...(opts.fetch ? { fetch: opts.fetch } : {}) }),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    transport.onerror = (err) => log.warn('mcp transport error', { requestId, error: err.message });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(
        new Request(`${config.publicBaseUrl ?? 'http://localhost'}/mcp`, {
          method: 'POST',
          headers,
          ...(body ? { body } : {}),
        }),
      );
      return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    } finally {
      await server.close();
    }
  }
}
