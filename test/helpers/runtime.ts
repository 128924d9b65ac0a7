import { startLocalRuntime, type TRuntime, type TRuntimeOptions } from '#infra/local/runtime';

/** Tests fire requests faster than a real client; only the throttling tests set limits. */
export const TEST_LIMITS = { quotaLimit: 1_000_000, rateLimit: 100_000, burstLimit: 100_000 };

/** A whole local runtime on a free port, in memory, quiet: one per test file. */
export function startTestRuntime(options: TRuntimeOptions = {}): Promise<TRuntime> {
  return startLocalRuntime({
    port: 0,
    memory: true,
    logLevel: 'silent',
    limits: TEST_LIMITS,
    // Every signer session of a test file comes from 127.0.0.1; only the limit tests set one.
    publicPathLimit: 1_000_000,
    ...options,
  });
}

export interface TApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
}

export interface TCallOptions {
  json?: unknown;
  form?: string;
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

/** Calls the API over real HTTP with the runtime's demo key unless told otherwise. */
export function apiClient(runtime: TRuntime, defaultKey = runtime.demo.apiKey) {
  return async function call(method: string, path: string, opts: TCallOptions = {}): Promise<TApiAnswer> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? defaultKey : opts.key;
    if (key !== null) headers.authorization = `Token ${key}`;
    let body: Buffer | string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    } else if (opts.form !== undefined) {
      body = opts.form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (opts.raw !== undefined) {
      body = opts.raw;
    }
    if (opts.contentType) headers['content-type'] = opts.contentType;
    const url = path.startsWith('http') ? path : `${runtime.baseUrl}/api/v2${path}`;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
}

/** Every error answer has the API's error body. */
export function isErrorBody(body: unknown): boolean {
  const b = body as Record<string, unknown> | undefined;
  return (
    !!b &&
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    b.detail === b.message &&
    Array.isArray(b.errors) &&
    (b.errors as Record<string, unknown>[]).every(
      (e) => typeof e.field === 'string' && typeof e.message === 'string' && e.messsage === e.message,
    )
  );
}
