// Whose address a request is from. Behind the AWS distribution the connection comes from an edge
// server, so the functions read the header the distribution writes the viewer's address into
// (infra/constructs/edge.ts; the WAF refuses requests that bypass the distribution); locally,
// where no such header is configured, the connection's own address, whatever a caller sends.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { VIEWER_ADDRESS_HEADER } from '#infra/front-door';
import { buildRequest } from '#shared/http/api-handler';
import type { TMatch } from '#shared/http/router';
import type { TLogger } from '#shared/logger';

const match: TMatch = {
  route: { method: 'GET', path: '/bundles', handler: async () => ({ status: 200, body: {} }) },
  params: {},
};
const event = (headers: Record<string, string>) =>
  ({
    httpMethod: 'GET',
    path: '/api/v2/bundles',
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    requestContext: { identity: { sourceIp: '130.176.1.1' } },
  }) as unknown as APIGatewayProxyEvent;
const ipOf = (headers: Record<string, string>, header?: string) =>
  buildRequest(event(headers), match, {} as TLogger, 'req-1', true, 'https://sign.example.org', header).client
    .ip;

describe('the caller’s address', () => {
  it('is the header the distribution writes, where the function is told of one', () => {
    expect(ipOf({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, VIEWER_ADDRESS_HEADER)).toBe('203.0.113.7');
  });

  it('is the connection’s own where no header is configured, whatever the caller sends', () => {
    expect(ipOf({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' })).toBe('130.176.1.1');
  });

  it('falls back to the connection’s address when the configured header is missing', () => {
    expect(ipOf({}, VIEWER_ADDRESS_HEADER)).toBe('130.176.1.1');
  });
});
