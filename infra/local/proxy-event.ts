import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

// Names come from the client: collected in Maps (a name like `__proto__` or `constructor` is
// just a name there) and turned into plain objects with own properties only.
function maps(pairs: Iterable<[string, string]>) {
  const multi = new Map<string, string[]>();
  for (const [name, value] of pairs) multi.set(name, [...(multi.get(name) ?? []), value]);
  return {
    // As API Gateway does: the single-value map holds the last value of a repeated name.
    single: Object.fromEntries([...multi].map(([k, v]) => [k, v[v.length - 1]!])) as Record<string, string>,
    multi: Object.fromEntries(multi) as Record<string, string[]>,
    size: multi.size,
  };
}

function* headerPairs(req: IncomingMessage): Iterable<[string, string]> {
  // rawHeaders keeps the client's spelling, as API Gateway passes it on. A client's own
  // X-Forwarded-Proto is dropped: API Gateway sets that header itself.
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.toLowerCase() !== 'x-forwarded-proto') yield [name, req.rawHeaders[i + 1]!];
  }
  yield ['X-Forwarded-Proto', 'http'];
}

/** The Authorization header as the authorizer will see it (the last one, if repeated). */
export function authorizationOf(req: IncomingMessage): string | undefined {
  const { multi } = maps(headerPairs(req));
  const values = [...Object.entries(multi)]
    .filter(([k]) => k.toLowerCase() === 'authorization')
    .flatMap(([, v]) => v);
  return values[values.length - 1];
}

export interface TIncoming {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  requestId: string;
  resource: string;
  stage: string;
}

/** The REST API proxy event API Gateway would build; bodies always base64 (binary media types: any). */
export function proxyEvent(i: TIncoming, authorizer: Record<string, unknown>): APIGatewayProxyEvent {
  const headers = maps(headerPairs(i.req));
  const query = maps(i.url.searchParams);
  const now = new Date();
  return {
    resource: i.resource,
    path: i.url.pathname,
    httpMethod: i.req.method ?? 'GET',
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.size > 0 ? query.single : null,
    multiValueQueryStringParameters: query.size > 0 ? query.multi : null,
    pathParameters: null,
    stageVariables: null,
    body: i.body.length > 0 ? i.body.toString('base64') : null,
    isBase64Encoded: i.body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer,
      protocol: `HTTP/${i.req.httpVersion}`,
      httpMethod: i.req.method ?? 'GET',
      path: i.url.pathname,
      stage: i.stage,
      requestId: i.requestId,
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: i.resource,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: i.req.socket.remoteAddress ?? '127.0.0.1',
        user: null,
        userAgent: i.req.headers['user-agent'] ?? null,
        userArn: null,
      },
    },
  };
}

export function authorizerEvent(i: TIncoming): APIGatewayRequestAuthorizerEvent {
  const e = proxyEvent(i, {});
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/${i.stage}/${e.httpMethod}${i.url.pathname}`,
    resource: e.resource,
    path: e.path,
    httpMethod: e.httpMethod,
    headers: e.headers,
    multiValueHeaders: e.multiValueHeaders,
    pathParameters: e.pathParameters,
    queryStringParameters: e.queryStringParameters,
    multiValueQueryStringParameters: e.multiValueQueryStringParameters,
    stageVariables: e.stageVariables,
    requestContext: e.requestContext,
  } as APIGatewayRequestAuthorizerEvent;
}
