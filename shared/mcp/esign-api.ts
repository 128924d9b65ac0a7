// The MCP server's only way into the service: its public REST API over HTTP, with the caller's
// API key, as any integrator calls it. So the API's rules, limits and tenant isolation apply to an
// agent exactly as to any other client, and nothing here knows the domain or the table.
import { randomUUID } from 'node:crypto';

/** What the API answered with an error status, or why it could not be asked. */
export class EsignApiError extends Error {
  override name = 'EsignApiError';
  constructor(
    message: string,
    /** The HTTP status (0 when the API could not be reached). */
    readonly status: number,
    /** The API's error body, when it sent one. */
    readonly body?: unknown,
  ) {
    super(message);
  }

  /** The error body's `code`, when it has one. */
  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  }
}

export interface TApiAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read by each tool for what it needs
  body: any;
}

export interface TEsignApi {
  call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    opts?: {
      query?: Record<string, string | number | undefined>;
      json?: unknown;
      /** The Idempotency-Key of a write; a new one per call when not given. */
      idempotencyKey?: string;
    },
  ): Promise<TApiAnswer>;
}

export interface TEsignApiOptions {
  /** The API's base URL, `…/api/v2` (a trailing slash is fine). */
  baseUrl: string;
  apiKey: string;
  /** Replaceable for tests; the platform's fetch otherwise. */
  fetch?: typeof fetch;
  /** Each call gives up after this long (the API answers within API Gateway's 29 s). */
  timeoutMs?: number;
  /** Pause before asking again after a lost answer (tests shorten it). */
  retryDelayMs?: number;
}

/**
 * Answers that say nothing about whether a write happened: no answer at all (0) and the gateway's
 * 502/503/504 (and the API's 409 idempotency_in_flight, while a first try still runs). A write
 * goes again with the same Idempotency-Key, so the API does it at most once and answers the
 * first outcome; a read simply goes again.
 */
const ASK_AGAIN = new Set([0, 502, 503, 504]);
const TRIES = 3;

/**
 * The message an agent should read for an error answer: the API's own `message` (docs/api-decisions.md,
 * "Errors") followed by each field error as `field: message`, so a 400 says what to fix.
 */
export function apiErrorMessage(status: number, body: unknown): string {
  const b = (body ?? {}) as { message?: unknown; detail?: unknown; errors?: unknown };
  const text = typeof b.message === 'string' ? b.message : typeof b.detail === 'string' ? b.detail : '';
  const fields = Array.isArray(b.errors)
    ? (b.errors as { field?: unknown; message?: unknown }[])
        .filter((e) => typeof e.message === 'string')
        .map((e) => (e.field ? `${String(e.field)}: ${String(e.message)}` : String(e.message)))
    : [];
  const head = text || `The eSignature API answered ${status}.`;
  return fields.length > 0 ? `${head} (${fields.join('; ')})` : head;
}

export function createEsignApi(opts: TEsignApiOptions): TEsignApi {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 25_000;
  const retryDelayMs = opts.retryDelayMs ?? 1_000;

  async function once(method: string, url: URL, headers: Record<string, string>, body?: string) {
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new EsignApiError(`The eSignature API could not be reached: ${(err as Error).message}`, 0);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw new EsignApiError(apiErrorMessage(res.status, parsed), res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed };
  }

  return {
    async call(method, path, { query, json, idempotencyKey } = {}) {
      const url = new URL(`${base}${path}`);
      for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = {
        authorization: `Token ${opts.apiKey}`,
        accept: 'application/json',
      };
      if (json !== undefined) headers['content-type'] = 'application/json';
      // One key for every try of this call: a write whose answer was lost is never made twice.
      if (method !== 'GET') headers['idempotency-key'] = idempotencyKey ?? randomUUID();
      const body = json !== undefined ? JSON.stringify(json) : undefined;
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(method, url, headers, body);
        } catch (err) {
          const status = (err as EsignApiError).status;
          const inFlight = status === 409 && (err as EsignApiError).code === 'idempotency_in_flight';
          if (attempt >= TRIES || !(ASK_AGAIN.has(status) || inFlight)) throw err;
          await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
        }
      }
    },
  };
}

/** `X-BlueInk-Pagination: page,total_pages,per_page,total` as numbers (absent: one page). */
export function paginationOf(headers: Headers, count: number) {
  const parts = (headers.get('x-blueink-pagination') ?? '').split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) {
    return { page: 1, total_pages: 1, per_page: count, total: count };
  }
  const [page, totalPages, perPage, total] = parts as [number, number, number, number];
  return { page, total_pages: totalPages, per_page: perPage, total };
}
