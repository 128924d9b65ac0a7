import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

function headerMaps(req: IncomingMessage) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  // rawHeaders keeps the client's spelling, as API Gateway passes it on.
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    single[name] = value;
    multi[name] = [...(multi[name] ?? []), value];
  }
  return { single, multi };
}

function queryMaps(url: URL) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    single[k] = v;
    multi[k] = [...(multi[k] ?? []), v];
  }
  const any = Object.keys(single).length > 0;
  return { single: any ? single : null, multi: any ? multi : null };
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
  const headers = headerMaps(i.req);
  // API Gateway tells the function how the client reached it; locally that is plain HTTP.
  headers.single['X-Forwarded-Proto'] = 'http';
  headers.multi['X-Forwarded-Proto'] = ['http'];
  const query = queryMaps(i.url);
  const now = new Date();
  return {
    resource: i.resource,
    path: i.url.pathname,
    httpMethod: i.req.method ?? 'GET',
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
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
