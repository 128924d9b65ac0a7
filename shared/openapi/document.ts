// The OpenAPI 3.1 description of the keyed API, built from the operation table and the zod
// schemas: served at GET /api/v2/openapi.json (functions/public-pages/openapi.ts).
import { UNTRUSTED_WORK_BUDGET } from '#shared/adapters/untrusted/budget';
import { ID_FORMATS, isIdKind } from '#shared/domain/ids';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '#shared/domain/paging';
import { defaultBodyOptions } from '#shared/http/body';
import { ERROR_CODES } from '#shared/http/error-body';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '#shared/http/idempotency-key';
import { UNTRUSTED_PDF_LIMITS } from '#shared/pdf/untrusted-limits';
import { SUBSCRIBABLE_EVENT_TYPES } from '#shared/schemas/vocabulary';
import {
  componentSchemas,
  queryParameters,
  responseSchemaId,
  schemaRef,
  type TJsonSchema,
} from './components';
import { OPERATIONS, type TOperation } from './operations';

/** Where the description itself is served, below /api/v2; no API key needed. */
import { OPENAPI_PATH } from './path';

export { OPENAPI_PATH };

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const PAGINATION_HEADERS = {
  'X-BlueInk-Pagination': { $ref: '#/components/headers/X-BlueInk-Pagination' },
  Link: { $ref: '#/components/headers/Link' },
};

const intHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const HEADERS = {
  'X-RateLimit-Limit': intHeader("The key's daily request quota (as GET rate_limit/ `limit`)."),
  'X-RateLimit-Remaining': intHeader('Requests left of the quota today (as `remaining`).'),
  'X-RateLimit-Reset': intHeader('Seconds until the quota day ends, UTC (as `reset`).'),
  'Retry-After': intHeader('Seconds to wait before trying again.'),
  'X-BlueInk-Pagination': {
    description: '`page,total_pages,per_page,total` of this list.',
    schema: { type: 'string', pattern: '^\\d+,\\d+,\\d+,\\d+$' },
    example: '1,3,50,120',
  },
  [REPLAYED_HEADER]: {
    description:
      'On an answer given again for a retry with the same `Idempotency-Key` (the first answer, status and body, without doing the work again); absent otherwise.',
    schema: { type: 'string', const: 'true' },
  },
  Link: {
    description:
      'RFC 8288 links to the `first`, `prev`, `next` and `last` pages, absolute, with the list filters sent.',
    schema: { type: 'string' },
  },
};

const errorResponse = (description: string, headers: Record<string, unknown> = RATE_LIMIT_HEADERS) => ({
  description,
  headers,
  content: { 'application/json': { schema: schemaRef('Error') } },
});

const RESPONSES = {
  BadRequest: {
    ...errorResponse('The request is invalid (`invalid`, one entry of `errors` per field) or unreadable.'),
    content: {
      'application/json': {
        schema: schemaRef('Error'),
        example: {
          code: 'invalid',
          message: 'Invalid input.',
          detail: 'Invalid input.',
          errors: [
            { field: 'name', message: 'This field is required.', messsage: 'This field is required.' },
          ],
        },
      },
    },
  },
  Unauthorized: errorResponse(
    'No key (`not_authenticated`), or an unknown or revoked key (`authentication_failed`).',
    {},
  ),
  NotFound: errorResponse('Nothing of this account has this id (`not_found`).'),
  Conflict: errorResponse("The resource's state does not allow this now (`conflict`)."),
  ConflictOrInFlight: errorResponse(
    "The resource's state does not allow this now (`conflict`), or a request with this `Idempotency-Key` is still at work (`idempotency_in_flight`, with `Retry-After`: retry with the same key and body).",
  ),
  InFlight: errorResponse(
    'A request with this `Idempotency-Key` is still at work (`idempotency_in_flight`, with `Retry-After`): retry with the same key and body to get its answer.',
  ),
  IdempotencyKeyReused: errorResponse(
    'This `Idempotency-Key` was used in the last 24 hours with another request (method, path or body): `idempotency_key_reused`. Use a new key for a new request.',
  ),
  IdempotencyKeyReusedOrTooComplex: errorResponse(
    `This \`Idempotency-Key\` was used in the last 24 hours with another request (\`idempotency_key_reused\`), or the file would cost more to read than one request may spend (\`too_complex\`): more than ${UNTRUSTED_PDF_LIMITS.maxSignatures} signatures, ${UNTRUSTED_PDF_LIMITS.maxObjects.toLocaleString('en')} objects or ${UNTRUSTED_PDF_LIMITS.maxDecodedBytes / 2 ** 20} MB of expanded streams, or more than ${UNTRUSTED_WORK_BUDGET.timeoutMs / 1000} s or ${UNTRUSTED_WORK_BUDGET.maxHeapMb} MB of memory to check.`,
  ),
  TooManyRequests: errorResponse('Over the daily quota or the throttle (`throttled`).', {
    'Retry-After': { $ref: '#/components/headers/Retry-After' },
    ...RATE_LIMIT_HEADERS,
  }),
  Error: errorResponse(`Any other error; \`code\` is one of ${ERROR_CODES.join(', ')}.`),
};

const errorRef = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });

/** The methods that take an Idempotency-Key (shared/http/idempotent-request.ts). */
const WRITES = new Set(['post', 'put', 'patch']);

const PARAMETERS = {
  [IDEMPOTENCY_HEADER]: {
    name: IDEMPOTENCY_HEADER,
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same request (method, path and body bytes) within 24 hours answers the first answer again, status and body, with `Idempotent-Replayed: true`, without doing the work twice, even when both arrive at once. Keys are per account. Answers below 500 (but 429) are kept; after a 5xx or 429 the key is free again. The same key with another request is 422 `idempotency_key_reused`; a retry while the first is still at work waits for it, or answers 409 `idempotency_in_flight`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    example: '5f0c8a3e-2b7d-4e61-9d0a-7c4b1e2f3a90',
  },
};

/** `METHOD /bundles/{id:slug}` → its method, the OpenAPI path and the path parameters. */
export function parseRoute(route: string): { method: string; path: string; params: TJsonSchema[] } {
  const [method, routePath] = route.split(' ') as [string, string];
  const params: TJsonSchema[] = [];
  const path = routePath.replace(/\{(\w+)(?::([\w-]+))?\}/g, (_all, name: string, kind?: string) => {
    const format = kind && isIdKind(kind) ? ID_FORMATS[kind] : undefined;
    params.push({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', ...(format ? { pattern: format.source } : {}) },
    });
    return `{${name}}`;
  });
  return { method: method.toLowerCase(), path, params };
}

const binary = (mediaType = 'application/octet-stream') => ({ type: 'string', contentMediaType: mediaType });

function requestBody(body: NonNullable<TOperation['body']>, example?: unknown): TJsonSchema {
  const content: Record<string, unknown> = {};
  for (const kind of body.accept ?? defaultBodyOptions.accept) {
    if (kind === 'json') {
      content['application/json'] = { schema: schemaRef(body.name), ...(example ? { example } : {}) };
    }
    if (kind === 'form') content['application/x-www-form-urlencoded'] = { schema: schemaRef(body.name) };
    if (kind === 'upload') content['application/pdf'] = { schema: binary('application/pdf') };
    if (kind === 'multipart') {
      content['multipart/form-data'] = body.jsonPart
        ? {
            schema: {
              type: 'object',
              properties: {
                [body.jsonPart]: {
                  type: 'string',
                  contentMediaType: 'application/json',
                  contentSchema: body.filePart?.jsonPartIs
                    ? { anyOf: body.filePart.jsonPartIs.map(schemaRef) }
                    : schemaRef(body.name),
                },
                ...(body.filePart ? { [body.filePart.name]: binary(body.filePart.mediaType) } : {}),
              },
              ...(body.filePart
                ? {}
                : {
                    patternProperties: {
                      '^files\\[\\d+\\]$': {
                        ...binary(),
                        description: 'A document file named by a file_index: a PDF, JPEG or PNG.',
                      },
                    },
                  }),
              required: [body.jsonPart],
            },
            encoding: { [body.jsonPart]: { contentType: 'application/json' } },
          }
        : // The file as part `file`, or the request's fields as fields.
          {
            schema: {
              anyOf: [
                { type: 'object', properties: { file: binary() }, required: ['file'] },
                schemaRef(body.name),
              ],
            },
          };
    }
  }
  return { required: true, content };
}

function operation(op: TOperation): TJsonSchema {
  const { params, method } = parseRoute(op.route);
  const parameters = [...params];
  if (op.list) {
    parameters.push(
      {
        name: 'page',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, default: 1 },
      },
      {
        name: 'per_page',
        in: 'query',
        required: false,
        description: `At most ${MAX_PER_PAGE}; more is read as ${MAX_PER_PAGE}.`,
        schema: { type: 'integer', minimum: 1, default: DEFAULT_PER_PAGE },
      },
    );
    if (op.list.filters) parameters.push(...queryParameters(op.list.filters));
  }
  if (op.query) parameters.push(...queryParameters(op.query));
  const write = WRITES.has(method);
  if (write) parameters.push({ $ref: `#/components/parameters/${IDEMPOTENCY_HEADER}` });
  const answerHeaders = write
    ? { ...RATE_LIMIT_HEADERS, [REPLAYED_HEADER]: { $ref: `#/components/headers/${REPLAYED_HEADER}` } }
    : RATE_LIMIT_HEADERS;

  const { status, schema, array } = op.response;
  const success =
    status === 204
      ? { description: 'Done; no body.', headers: answerHeaders }
      : {
          description: 'OK',
          headers: op.list ? { ...answerHeaders, ...PAGINATION_HEADERS } : answerHeaders,
          content: {
            'application/json': {
              schema: array
                ? { type: 'array', items: schemaRef(responseSchemaId(schema!)) }
                : schemaRef(responseSchemaId(schema!)),
              ...(op.examples?.response ? { example: op.examples.response } : {}),
            },
          },
        };
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: requestBody(op.body, op.examples?.request) } : {}),
    responses: {
      [String(status)]: success,
      '400': errorRef('BadRequest'),
      '401': errorRef('Unauthorized'),
      '404': errorRef('NotFound'),
      ...(write
        ? {
            '409': errorRef(op.conflict ? 'ConflictOrInFlight' : 'InFlight'),
            '422': errorRef(op.tooComplex ? 'IdempotencyKeyReusedOrTooComplex' : 'IdempotencyKeyReused'),
          }
        : op.conflict
          ? { '409': errorRef('Conflict') }
          : {}),
      '429': errorRef('TooManyRequests'),
      default: errorRef('Error'),
    },
  };
}

const signatureHeader = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

/** One OpenAPI webhook per event type: the call a receiver gets, and how to check it is ours. */
function webhooks(): Record<string, unknown> {
  return Object.fromEntries(
    SUBSCRIBABLE_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `The ${type} event`,
          description:
            type === 'bundle_signer_reassigned'
              ? 'Taken in `event_types` so that clients offering it work, but never sent: BlueInk publishes no payload for it, and a signer handing their packet on sends `packet_reassigned` instead.'
              : 'A webhook subscribed to this type receives this call (form-encoded, the payload as JSON text, when its `json` is false). Check either signature with the secret of GET webhooks/secret/ (README, "Receiving webhooks").',
          parameters: [
            signatureHeader('X-BlueInk-Request-Timestamp', 'Unix seconds.'),
            signatureHeader(
              'X-BlueInk-Signature',
              'Hex HMAC-SHA256 of `v0:{timestamp}:{body}`, one per secret in use, joined by ", ".',
            ),
            signatureHeader('webhook-id', 'Standard Webhooks: the event id.'),
            signatureHeader('webhook-timestamp', 'Standard Webhooks: Unix seconds.'),
            signatureHeader(
              'webhook-signature',
              'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`.',
            ),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [schemaRef('WebhookCall'), { properties: { event_type: { const: type } } }],
                },
                ...(type === 'bundle_complete'
                  ? {
                      example: {
                        event_id: '0b7b7a9e-5d1f-8c2a-9e1d-3f4a5b6c7d8e',
                        event_type: 'bundle_complete',
                        event_date: '2026-01-05T10:00:00.000Z',
                        account_id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
                        payload: { bundle_id: 'aB3dE5fG7h', custom_key: 'order-1234' },
                      },
                    }
                  : {}),
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx answer counts as delivered; anything else is retried.' },
          },
        },
      },
    ]),
  );
}

/** The description, with `baseUrl` (the stage's public base URL) as its server. */
export function buildOpenApiDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const { method, path } = parseRoute(op.route);
    paths[path] = { ...paths[path], [method]: operation(op) };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'retrieveOpenApiDescription',
      tags: ['Description'],
      summary: 'This description (no API key needed)',
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 description.', content: { 'application/json': {} } },
      },
    },
  };
  return {
    openapi: '3.1.1',
    info: {
      title: 'Open eSignature API',
      version: '2',
      description:
        "Wire-compatible with BlueInk's eSignature API v2. Every path also answers with a trailing slash, as the official clients send it. Lists are paginated with `page` and `per_page`; errors share one body.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `${baseUrl.replace(/\/$/, '')}/api/v2` }],
    security: [{ TokenAuth: [] }, { ConsoleSession: [] }],
    tags: [
      'Bundles',
      'Packets',
      'Persons',
      'Document templates',
      'Envelope templates',
      'Webhooks',
      'Account',
      'Verify',
      'Description',
    ].map((name) => ({ name })),
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        TokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The API key after `Token `: `Authorization: Token <key>`.',
        },
        ConsoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'esign_session',
          description:
            "The sender console's session cookie, taken when there is no Authorization header. POST, PUT, PATCH and DELETE also need the session's `X-CSRF-Token` header, else 403 `csrf_failed`.",
        },
      },
      schemas: componentSchemas(OPERATIONS),
      headers: HEADERS,
      parameters: PARAMETERS,
      responses: RESPONSES,
    },
  };
}
