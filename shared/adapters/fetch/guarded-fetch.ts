// A Fetch-shaped client for libraries that take one (openid-client's customFetch), sending every
// request through the outbound URL guard (safe-fetch.ts): scheme, credentials, port and every
// resolved address checked before a socket opens, the socket pinned to the checked addresses,
// redirects never followed, and the answer's body read up to a cap within one deadline.
import http from 'node:http';
import https from 'node:https';
import { createUrlGuard, type TLookup } from './safe-fetch';

export interface TGuardedFetchOptions {
  allowHttp: boolean;
  allowLoopback: boolean;
  maxBytes: number;
  timeoutMs: number;
  lookup?: TLookup;
}

export type TGuardedFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal },
) => Promise<Response>;

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new Error('This client sends only string, form or byte bodies.');
}

export function createGuardedFetch(options: TGuardedFetchOptions): TGuardedFetch {
  const guard = createUrlGuard(options);
  return async (rawUrl, init) => {
    const url = new URL(rawUrl);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    const onAbort = () => controller.abort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const target = await guard.check(url, controller.signal);
      const body = bodyBytes(init.body);
      return await new Promise<Response>((resolve, reject) => {
        const req = (url.protocol === 'https:' ? https : http).request({
          ...target,
          method: init.method,
          path: `${url.pathname}${url.search}`,
          headers: {
            ...init.headers,
            host: url.host,
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
          signal: controller.signal,
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          let total = 0;
          res.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > options.maxBytes) {
              res.destroy();
              reject(new Error('The answer is larger than this client reads.'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            const status = res.statusCode ?? 502;
            const noBody = status === 204 || status === 304;
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers }));
          });
        });
        req.end(body);
      });
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    }
  };
}
