// Delivers webhook calls to URLs that senders choose. Such a URL is as untrusted as a `file_url`, so it
// passes the same guard (safe-fetch.ts): scheme, credentials, port and every resolved address are
// checked before any socket opens, and the socket goes only to the checked addresses.
//
// The outcome is written into the sender's delivery log, which is why nothing here throws for network
// trouble and why messages never carry addresses or socket errors: those would map our network.

import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TWebhookCaller, TWebhookCallResult } from '#shared/domain/ports/webhooks';
import { createUrlGuard, type TConnectTarget, type TLookup, UrlRefusal } from './safe-fetch';

/** One deadline for DNS, connect, TLS and the status line and headers of the answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

const USER_AGENT = 'open-esign-webhooks/1';
// Reading a little of the body lets a receiver that writes a short reply finish it cleanly; beyond that
// the body is of no interest and a receiver must not be able to keep us reading.
const MAX_DRAINED_BYTES = 64 * 1024;
// These decide where the request goes and how its body is framed, so only this client sets them;
// the webhook schema refuses them as extra headers already, and this keeps any other caller honest.
const OWN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
]);

const result = (status: number, message: string): TWebhookCallResult => ({
  status,
  ok: status >= 200 && status <= 299 && message === '',
  message,
});

/** Request headers in wire order, as the flat name/value list node:http accepts. */
function wireHeaders(url: URL, headers: [string, string][], bodyLength: number): string[] {
  const flat = ['host', url.host];
  let hasUserAgent = false;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    // Two User-Agent headers would leave the receiver guessing; a sender's own choice wins.
    if (lower === 'user-agent') hasUserAgent = true;
    flat.push(name, value);
  }
  if (!hasUserAgent) flat.push('user-agent', USER_AGENT);
  flat.push('content-length', String(bodyLength));
  return flat;
}

function connectProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED') return 'the server refused the connection';
  // Certificate failures are the one connect error a sender can act on without knowing our network.
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code))
    return "the server's TLS certificate was not accepted";
  return 'the server could not be reached or closed the connection';
}

/**
 * Sends the request and settles as soon as the status line and headers arrive; the body of the answer
 * is left to the caller. Rejects on connect, TLS and socket errors, and when `signal` aborts.
 */
function send(
  url: URL,
  target: TConnectTarget,
  headers: string[],
  body: Buffer,
  signal: AbortSignal,
): { response: Promise<IncomingMessage>; destroy: () => void } {
  const requestOptions: https.RequestOptions = {
    ...target,
    method: 'POST',
    path: `${url.pathname}${url.search}`,
    // An array keeps the order the sender configured; node writes it to the wire as given.
    headers,
  };
  const req = (url.protocol === 'https:' ? https : http).request(requestOptions);
  const destroy = () => req.destroy(new Error('aborted'));
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    // Stays attached after the answer arrives: a late socket error must not become an uncaught one.
    req.on('error', reject);
    req.on('response', resolve);
    if (signal.aborted) destroy();
    else signal.addEventListener('abort', destroy, { once: true });
    req.end(body);
  });
  return { response, destroy };
}

export function createWebhookCaller(
  rules: { allowHttp: boolean; allowLoopback: boolean },
  options: { timeoutMs?: number; lookup?: TLookup } = {},
): TWebhookCaller {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const guard = createUrlGuard({ ...rules, lookup: options.lookup });

  async function post(
    rawUrl: string,
    headers: [string, string][],
    body: string,
  ): Promise<TWebhookCallResult> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return result(0, 'refused: not a valid absolute URL');
    }
    const bytes = Buffer.from(body, 'utf8');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let answered = false;
    try {
      const target = await guard.check(url, controller.signal);
      let exchange: ReturnType<typeof send>;
      try {
        exchange = send(url, target, wireHeaders(url, headers, bytes.length), bytes, controller.signal);
      } catch {
        // node:http validates names and values before anything is sent.
        return result(0, 'refused: a header name or value is not valid in HTTP');
      }
      const res = await exchange.response;
      answered = true;
      // The deadline keeps running so that a slow body cannot hold the socket open past it.
      let drained = 0;
      res.on('data', (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > MAX_DRAINED_BYTES) exchange.destroy();
      });
      res.on('error', () => {});
      res.on('close', () => {
        clearTimeout(timer);
        exchange.destroy();
      });
      const status = res.statusCode ?? 0;
      if (status >= 200 && status <= 299) return result(status, '');
      if (status >= 300 && status <= 399)
        return result(status, `redirects are not followed (HTTP ${status})`);
      return result(status, `HTTP ${status}`);
    } catch (err) {
      if (err instanceof UrlRefusal) {
        return result(0, err.reason === 'unreachable' ? err.problem : `refused: ${err.problem}`);
      }
      if (controller.signal.aborted) return result(0, `no answer within ${timeoutMs / 1000} s`);
      return result(0, connectProblem(err));
    } finally {
      if (!answered) clearTimeout(timer);
    }
  }

  return { post };
}
