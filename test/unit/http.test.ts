import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  ConcurrentUpdateError,
  ConflictError,
  GoneError,
  NotFoundError,
  PermissionDeniedError,
  ServiceError,
  ServiceUnavailableError,
  SigningSessionError,
  ThrottledError,
  ValidationError,
} from '#shared/domain/errors';
import { parseBody } from '#shared/http/body';
import { errorBody } from '#shared/http/error-body';
import { toHttpError } from '#shared/http/error-mapping';
import { MethodNotAllowedError } from '#shared/http/errors';
import { paginationHeaders, parsePage } from '#shared/http/pagination';
import { requestUrl } from '#shared/http/request';
import { createRouter, normalizePath } from '#shared/http/router';
import { redact } from '#shared/logger';

const q = (params: Record<string, string>) => ({ get: (n: string) => params[n] });

describe('pagination', () => {
  it('defaults to page 1 of 50 and caps per_page at 100', () => {
    expect(parsePage(q({}))).toEqual({ page: 1, perPage: 50 });
    expect(parsePage(q({ page: '3', per_page: '1000' }))).toEqual({ page: 3, perPage: 100 });
  });
  it('builds X-BlueInk-Pagination and Link', () => {
    const h = paginationHeaders(
      { page: 2, perPage: 50 },
      176,
      new URL('https://api.test/api/v2/persons/?junk=1&search=zzz'),
      { search: 'a', email: undefined },
    );
    expect(h['X-BlueInk-Pagination']).toBe('2,4,50,176');
    expect(h.Link).toBe(
      [
        '<https://api.test/api/v2/persons/?search=a&page=1&per_page=50>; rel="first"',
        '<https://api.test/api/v2/persons/?search=a&page=1&per_page=50>; rel="prev"',
        '<https://api.test/api/v2/persons/?search=a&page=3&per_page=50>; rel="next"',
        '<https://api.test/api/v2/persons/?search=a&page=4&per_page=50>; rel="last"',
      ].join(', '),
    );
  });
  it('counts an empty list as one page', () => {
    expect(paginationHeaders({ page: 1, perPage: 50 }, 0, new URL('https://x/')).Link).not.toContain('next');
  });
});

describe('request URL', () => {
  const event = (requestContext: Record<string, unknown>) =>
    ({
      path: '/api/v2/persons/',
      headers: { Host: 'attacker.example', 'X-Forwarded-Proto': 'https' },
      requestContext: { stage: 'prod', path: '/prod/api/v2/persons/', ...requestContext },
    }) as unknown as APIGatewayProxyEvent;

  it('is on the configured public base URL, whatever Host says', () => {
    expect(requestUrl(event({}), 'https://api.example/prod/').href).toBe(
      'https://api.example/prod/api/v2/persons/',
    );
  });
  it('without one, is on the domain API Gateway was called on, never on Host', () => {
    expect(requestUrl(event({ domainName: 'abc.execute-api.local' })).href).toBe(
      'https://abc.execute-api.local/prod/api/v2/persons/',
    );
    expect(requestUrl(event({})).host).toBe('localhost');
  });
});

describe('error body', () => {
  it('repeats message as detail and sends both spellings per field', () => {
    expect(errorBody('invalid', 'Invalid input.', [{ field: 'a[0].b', message: 'bad' }])).toEqual({
      code: 'invalid',
      message: 'Invalid input.',
      detail: 'Invalid input.',
      errors: [{ field: 'a[0].b', message: 'bad', messsage: 'bad' }],
    });
  });
  it('maps known errors and hides unknown ones behind a 500', () => {
    expect(toHttpError(new ValidationError('x', [{ field: 'f', message: 'm' }]))).toMatchObject({
      status: 400,
      code: 'invalid',
      fieldErrors: [{ field: 'f', message: 'm' }],
    });
    expect(toHttpError(new MethodNotAllowedError('PUT', ['GET']))).toMatchObject({
      status: 405,
      headers: { Allow: 'GET' },
    });
    const internal = toHttpError(new Error('connect ECONNREFUSED 10.0.0.1:5432'));
    expect(internal).toMatchObject({ status: 500, code: 'error' });
    expect(internal.message).not.toContain('ECONNREFUSED');
  });
  it('maps by class, not by name: an error that only calls itself ValidationError is a 500', () => {
    const impostor = Object.assign(new Error('Field f is wrong'), {
      name: 'ValidationError',
      fieldErrors: [],
    });
    expect(toHttpError(impostor)).toMatchObject({
      status: 500,
      code: 'error',
      message: 'A server error occurred.',
    });
    // Every member of the family that the API answers with has its own rule.
    const family: [Error, number][] = [
      [new NotFoundError(), 404],
      [new ConflictError('x'), 409],
      [new ConcurrentUpdateError(), 409],
      [new ThrottledError(7), 429],
      [new GoneError('x'), 410],
      [new SigningSessionError(), 401],
      [new PermissionDeniedError(), 403],
      [new ServiceUnavailableError('x'), 503],
    ];
    for (const [err, status] of family) {
      expect(err).toBeInstanceOf(ServiceError);
      expect(toHttpError(err).status, err.name).toBe(status);
    }
    expect(toHttpError(new ThrottledError(7)).headers).toEqual({ 'Retry-After': '7' });
  });
  it('keeps what led to an error as its cause', () => {
    const cause = new Error('ConditionalCheckFailed');
    const err = new ConflictError('Please try again.', { cause });
    expect(err.cause).toBe(cause);
    expect(toHttpError(err)).toMatchObject({ status: 409, message: 'Please try again.' });
  });
});

describe('body parsing', () => {
  it('parses JSON, and form bodies with nesting, repeats and dots', () => {
    expect(parseBody(Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(parseBody(Buffer.from('a=1&a=2&b[0][c]=x&d.e=y'), 'application/x-www-form-urlencoded')).toEqual({
      a: ['1', '2'],
      b: [{ c: 'x' }],
      d: { e: 'y' },
    });
  });
  it('refuses what it cannot read', () => {
    expect(() => parseBody(Buffer.from('x'), 'text/plain')).toThrow(
      expect.objectContaining({ name: 'UnsupportedMediaTypeError' }),
    );
    expect(() => parseBody(Buffer.from([0xff]), 'application/json')).toThrow(
      expect.objectContaining({ name: 'ParseError' }),
    );
    expect(() => parseBody(Buffer.alloc(11), 'application/json', { accept: ['json'], maxBytes: 10 })).toThrow(
      expect.objectContaining({ name: 'PayloadTooLargeError' }),
    );
  });
});

describe('routing', () => {
  const route = createRouter([
    { method: 'GET', path: '/persons/{id}', handler: async () => ({ status: 200 }) },
    { method: 'DELETE', path: '/persons/{id}', handler: async () => ({ status: 204 }) },
  ]);
  it('strips the prefix and the trailing slash', () => {
    expect(normalizePath('/api/v2/persons/abc/')).toBe('/persons/abc');
    expect(normalizePath('/api/v2/')).toBe('/');
  });
  it('captures parameters and lists allowed methods on a miss', () => {
    expect(route('GET', '/persons/a%20b').params).toEqual({ id: 'a b' });
    expect(() => route('PATCH', '/persons/x')).toThrow(expect.objectContaining({ allow: ['GET', 'DELETE'] }));
    expect(() => route('GET', '/persons/%zz')).toThrow(
      expect.objectContaining({ name: 'RouteNotFoundError' }),
    );
  });
  it('takes an id of a declared kind only in its shape, leaving other segments to other routes', () => {
    const typed = createRouter([
      { method: 'GET', path: '/webhooks/headers', handler: async () => ({ status: 200 }) },
      { method: 'GET', path: '/webhooks/{id:uuid}', handler: async () => ({ status: 200 }) },
      { method: 'DELETE', path: '/webhooks/{id:uuid}', handler: async () => ({ status: 204 }) },
      { method: 'GET', path: '/bundles/{id:slug}', handler: async () => ({ status: 200 }) },
    ]);
    const uuid = '6F1C1A4E-8A43-4A4B-9F59-2B9D8B0E0A11';
    expect(typed('GET', `/webhooks/${uuid}`).params).toEqual({ id: uuid });
    expect(typed('GET', '/bundles/HMXKQ0jhdJ').params).toEqual({ id: 'HMXKQ0jhdJ' });
    for (const path of [
      '/webhooks/nope',
      `/webhooks/${uuid}x`,
      `/webhooks/${'x'.repeat(1017)}`,
      '/bundles/HMXKQ0jhdJ1',
    ]) {
      expect(() => typed('GET', path), path).toThrow(expect.objectContaining({ name: 'RouteNotFoundError' }));
    }
    // `headers` is no webhook id: only its own route's methods are allowed there.
    expect(() => typed('DELETE', '/webhooks/headers')).toThrow(expect.objectContaining({ allow: ['GET'] }));
    expect(() =>
      createRouter([{ method: 'GET', path: '/x/{id:nothing}', handler: async () => ({ status: 200 }) }]),
    ).toThrow(/Unknown id kind/);
  });
});

describe('logs', () => {
  it('mask secrets at any depth', () => {
    const out = JSON.stringify(
      redact({ headers: { Authorization: 'Token abc', host: 'x' }, apiKey: 'k', nested: [{ secret: 's' }] }),
    );
    expect(out).not.toMatch(/Token abc|"k"|"s"/);
    expect(out).toContain('"host":"x"');
  });
  it("keep an error's cause, so a 503 says what failed underneath", () => {
    const cause = Object.assign(
      new Error('User is not authorized to perform secretsmanager:GetSecretValue'),
      {
        name: 'AccessDeniedException',
      },
    );
    const out = redact({ err: new Error('Payments are unavailable right now', { cause }) }) as {
      err: { cause: { name: string; message: string } };
    };
    expect(out.err.cause).toMatchObject({ name: 'AccessDeniedException', message: cause.message });
  });
});
