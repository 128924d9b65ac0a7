// Sending bad input to a running API and checking the contract every answer keeps: 2xx–4xx, never
// 5xx, and every error answer carries the API's error body with a code that matches its status
// (docs/api-decisions.md, Errors). Nothing here knows an endpoint group: paths come from the caller, with
// FIXTURE standing for the id of a record the caller created.
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { type apiClient, isErrorBody } from '../runtime';

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const API = '/api/v2';

/** The status/code pairs of docs/api-decisions.md for the 4xx answers this API gives. */
export const CODES_BY_STATUS: Record<number, readonly string[]> = {
  400: ['invalid', 'parse_error'],
  401: ['not_authenticated', 'authentication_failed'],
  403: ['permission_denied'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  409: ['conflict'],
  413: ['invalid'],
  415: ['unsupported_media_type'],
  429: ['throttled'],
};

/** Placeholders resolved when a request is sent (arbitraries are built before the runtime is up). */
export const FIXTURE = '{fixture}';

export interface TBadRequest {
  method: string;
  /** Below /api/v2; FIXTURE stands for the id of a record that exists (TSendTarget.fixtureId). */
  path: string;
  /** Lower-case names. An `authorization` here replaces the demo key's. */
  headers?: Record<string, string | string[]>;
  body?: Buffer;
  /** undefined: no Content-Type header at all. */
  contentType?: string;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
  /** Force node:http (exact bytes: no path normalization, no header trimming). */
  raw?: boolean;
}

export interface TAnswer {
  status: number;
  text: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** Where requests go; read when a request is sent, so it may be filled in by a beforeAll. */
export interface TSendTarget {
  runtime: TRuntime;
  call: ReturnType<typeof apiClient>;
  /** What FIXTURE stands for: the id of a record that exists. */
  fixtureId: string;
  /** What FIXTURE stands for on DELETE: a well-formed id that names no record. */
  ghostId: string;
}

export interface TSender {
  /** The request's path with FIXTURE resolved (below /api/v2). */
  resolvePath(r: TBadRequest): string;
  /** node:http, for what fetch refuses or would rewrite (odd methods, paths, header bytes, chunking). */
  sendRaw(r: TBadRequest): Promise<TAnswer>;
  /** fetch when it sends the request unchanged, node:http otherwise. */
  send(r: TBadRequest): Promise<TAnswer>;
  /** The contract: 200–499, and an error answer is the error body with a code its status allows. */
  expectApiAnswer(r: TBadRequest, a: TAnswer): void;
  /** send, then expectApiAnswer. */
  check(r: TBadRequest): Promise<TAnswer>;
  /**
   * Once every request sent so far has its answer. fast-check's interruptAfterTimeLimit races a
   * run against the clock and moves on without it, so a run cut short may still be in flight when
   * its property ends: a create it sent can land after the bundles were counted, or in the next test.
   */
  settled(): Promise<void>;
  /** Counts `p` among the requests settled() waits for (a caller's own step after a check). */
  track<T>(p: Promise<T>): Promise<T>;
}

export const short = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What fetch sends unchanged: standard methods, no body on GET/HEAD, no chunking, plain headers. */
const FETCH_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
function fetchCanSend(r: TBadRequest): boolean {
  if (r.raw || r.chunked || r.headers || !FETCH_METHODS.has(r.method)) return false;
  if (r.body && (r.method === 'GET' || r.method === 'HEAD')) return false;
  if (r.contentType !== undefined && !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(r.contentType))
    return false;
  return true;
}

/** The sending helpers for one target. */
export function badInputSender(target: () => TSendTarget): TSender {
  function resolvePath(r: TBadRequest): string {
    const { fixtureId, ghostId } = target();
    // DELETE on the fixture would succeed and leave the other properties without a record to hit.
    return r.path.replaceAll(FIXTURE, r.method === 'DELETE' ? ghostId : fixtureId);
  }

  function sendRaw(r: TBadRequest): Promise<TAnswer> {
    const { runtime } = target();
    const base = new URL(runtime.baseUrl);
    const headers: OutgoingHttpHeaders = { authorization: `Token ${runtime.demo.apiKey}`, ...r.headers };
    if (r.contentType !== undefined) headers['content-type'] = r.contentType;
    if (r.body && !r.chunked) headers['content-length'] = r.body.length;
    if (r.body && r.chunked) headers['transfer-encoding'] = 'chunked';
    const path = `${API}${resolvePath(r)}`;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: base.hostname, port: base.port, method: r.method, path, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) =>
            reject(new Error(`answer to ${r.method} ${path} broke off: ${err.message}`)),
          );
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, text, body: parseJson(text), headers: res.headers });
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        const why =
          err.code === 'HPE_HEADER_OVERFLOW'
            ? 'the answer has headers over 16 KiB, which Node (http and fetch) refuses to read'
            : err.message;
        reject(new Error(`no readable HTTP answer to ${r.method} ${short(path, 200)}: ${why}`));
      });
      if (!r.body) return req.end();
      if (!r.chunked) return req.end(r.body);
      const body = r.body;
      let at = 0;
      const pump = () => {
        while (at < body.length) {
          const chunk = body.subarray(at, at + 64 * KiB);
          at += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
  }

  async function send(r: TBadRequest): Promise<TAnswer> {
    if (!fetchCanSend(r)) return sendRaw(r);
    const a = await target().call(r.method, resolvePath(r), {
      ...(r.body ? { raw: r.body } : {}),
      ...(r.contentType !== undefined ? { contentType: r.contentType } : {}),
    });
    return { status: a.status, text: a.text, body: a.body, headers: Object.fromEntries(a.headers) };
  }

  function expectApiAnswer(r: TBadRequest, a: TAnswer): void {
    const sent = r.body
      ? ` with ${r.body.length} bytes ${JSON.stringify(short(r.body.toString('utf8'), 100))}`
      : '';
    const what = `${r.method} ${short(resolvePath(r), 120)}${sent} answered ${a.status} ${short(a.text)}`;
    expect(a.status, `never a 5xx: ${what}`).toBeGreaterThanOrEqual(200);
    expect(a.status, `never a 5xx: ${what}`).toBeLessThan(500);
    if (a.status < 400) return;
    expect(Object.keys(CODES_BY_STATUS), `a 4xx of docs/api-decisions.md: ${what}`).toContain(
      String(a.status),
    );
    if (r.method === 'HEAD') return; // an answer to HEAD has no body by definition
    expect(isErrorBody(a.body), `the API's error body: ${what}`).toBe(true);
    expect(CODES_BY_STATUS[a.status], `a code that matches the status: ${what}`).toContain(
      (a.body as { code: string }).code,
    );
  }

  async function check(r: TBadRequest): Promise<TAnswer> {
    const a = await send(r);
    expectApiAnswer(r, a);
    return a;
  }

  const inFlight = new Set<Promise<unknown>>();
  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    const forget = () => inFlight.delete(p);
    p.then(forget, forget);
    return p;
  }
  const tracked =
    <A extends unknown[]>(fn: (...args: A) => Promise<TAnswer>) =>
    (...args: A): Promise<TAnswer> =>
      track(fn(...args));
  async function settled(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  return {
    resolvePath,
    sendRaw: tracked(sendRaw),
    send: tracked(send),
    expectApiAnswer,
    check: tracked(check),
    settled,
    track,
  };
}
