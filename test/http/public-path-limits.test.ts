import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { rawRequest, type TRawAnswer } from '../helpers/raw-http';
import { isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
const LIMIT = 3;

beforeAll(async () => {
  runtime = await startTestRuntime({ publicPathLimit: LIMIT });
});
afterAll(() => runtime?.stop());

/** A request from a chosen loopback address: the gateway sees it as the client's address. */
function from(address: string, method: string, path: string, json?: unknown): Promise<TRawAnswer> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return rawRequest(runtime.baseUrl, {
    method,
    path: new URL(path, runtime.baseUrl).pathname,
    localAddress: address,
    ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
  });
}

async function times(n: number, call: () => Promise<TRawAnswer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call()).status);
  return statuses;
}

function expectLimited(answer: TRawAnswer, kind: 'json' | 'page') {
  expect(answer.status).toBe(429);
  const retry = Number(answer.headers['retry-after']);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
  if (kind === 'json') {
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(answer.text);
    expect(isErrorBody(body)).toBe(true);
    expect(body.code).toBe('throttled');
  } else {
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain('Too many requests');
  }
}

describe('per-address limits on the public token paths', () => {
  it('answers 429 with Retry-After to signer session guesses past the limit, per address', async () => {
    const guess = (address: string) => () =>
      from(address, 'POST', '/sign/api/session', { token: 'x'.repeat(43) });
    const statuses = await times(LIMIT, guess('127.0.0.1'));
    expect(statuses.every((s) => s !== 429)).toBe(true);
    expectLimited(await guess('127.0.0.1')(), 'json');

    // Another signer API path and another address are not held back by these guesses.
    expect((await from('127.0.0.1', 'GET', '/sign/api/state')).status).not.toBe(429);
    expect((await guess('127.0.0.2')()).status).not.toBe(429);
  });

  it('limits preparation links (page and API) with a page or the JSON error body', async () => {
    const statuses = await times(LIMIT, () => from('127.0.0.3', 'GET', `/prepare/${'y'.repeat(43)}`));
    expect(statuses.every((s) => s !== 429)).toBe(true);
    expectLimited(await from('127.0.0.3', 'GET', `/prepare/${'z'.repeat(43)}`), 'page');
    expectLimited(await from('127.0.0.3', 'GET', '/prepare/api/session'), 'json');
    // The signer session limit of this address is its own.
    expect((await from('127.0.0.3', 'POST', '/sign/api/session', { token: 'x' })).status).not.toBe(429);
  });

  it('limits smart-link portal pages per address, apart from the other groups', async () => {
    const open = () => from('127.0.0.5', 'GET', '/portal/E-00000000');
    const statuses = await times(LIMIT, open);
    expect(statuses.every((s) => s !== 429)).toBe(true);
    expectLimited(await open(), 'page');
    expect((await from('127.0.0.5', 'POST', '/verify/api/check', {})).status).not.toBe(429);
  });

  it('limits the public verification check', async () => {
    const check = () => from('127.0.0.4', 'POST', '/verify/api/check', {});
    const statuses = await times(LIMIT, check);
    expect(statuses.every((s) => s !== 429)).toBe(true);
    expectLimited(await check(), 'json');
  });
});
