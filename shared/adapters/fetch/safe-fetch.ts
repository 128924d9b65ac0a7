// Downloads a sender-supplied `file_url` without letting the sender reach anything but the public
// internet (server-side request forgery). Every hop is checked before any socket is opened, and the
// socket then goes to exactly the addresses that were checked, so a DNS answer that changes between
// check and connect (DNS rebinding) cannot redirect us inward. The checks themselves are the URL guard
// (`createUrlGuard`), shared with the webhook caller, which must not reach inward either.

import { promises as dns } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type TUnsafeUrlReason, UnsafeUrlError } from './errors';
import { classifyAddress, ipLiteralOfHostname, type TAddressClass } from './ip-ranges';

export interface TResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; injectable so tests never depend on real DNS. */
export type TLookup = (hostname: string) => Promise<TResolvedAddress[]>;

export interface TUrlGuardOptions {
  /** Local runtime only: permits 127.0.0.0/8, ::1 (and so `localhost`) and any port. */
  allowLoopback: boolean;
  /** Local runtime only: permits plain `http:`; production accepts `https:` alone. */
  allowHttp: boolean;
  lookup?: TLookup;
}

export interface TSafeFetchOptions extends TUrlGuardOptions {
  maxBytes: number;
  /** One deadline for the whole fetch: DNS, connect, TLS, headers and body of every hop. */
  timeoutMs: number;
  /** How many redirects one fetch may follow; 0 refuses any redirect. */
  maxRedirects: number;
}

export type TUrlRefusalReason = Extract<
  TUnsafeUrlReason,
  'scheme' | 'credentials' | 'port' | 'address' | 'unreachable'
>;

/**
 * The guard turned a URL down. `problem` is a lower-case clause ("only https URLs are accepted") that
 * each client fits into its own message; like UnsafeUrlError it never names the addresses a host
 * resolved to, so it may be shown to whoever supplied the URL.
 */
export class UrlRefusal extends Error {
  override name = 'UrlRefusal';
  constructor(
    readonly reason: TUrlRefusalReason,
    readonly problem: string,
    options: { cause?: unknown } = {},
  ) {
    super(problem, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** Request options for node:http(s) that send the socket to the checked addresses only. */
export interface TConnectTarget {
  host: string;
  port: number;
  lookup: LookupFunction;
  // No pooling: a pooled socket could belong to an earlier check of the same name.
  agent: false;
  servername?: string;
}

export interface TUrlGuard {
  /**
   * Checks scheme, credentials, port and every address the host resolves to. Throws UrlRefusal; if
   * `signal` aborts during DNS resolution it rejects with that abort instead, so the caller can tell a
   * deadline from a refusal.
   */
  check(url: URL, signal: AbortSignal): Promise<TConnectTarget>;
}

export interface TFetchedFile {
  bytes: Buffer;
  contentType?: string;
  finalUrl: string;
}

export type TFetchUrl = (url: string) => Promise<TFetchedFile>;

const defaultLookup: TLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_SHOWN_URL = 300;
/** Reasons where the URL was acceptable but the download did not succeed. */
const FAILURES = new Set<TUnsafeUrlReason>(['unreachable', 'timeout', 'http_status']);

interface TFetchContext {
  /** The URL as the client gave it, cleaned up for inclusion in messages. */
  shown: string;
  signal: AbortSignal;
  redirects: number;
}

type THopOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'file'; bytes: Buffer; contentType: string | undefined };

function describeUrl(raw: string): string {
  let text = raw;
  try {
    const url = new URL(raw);
    // Credentials must not travel back into responses or logs, even to the client who sent them.
    url.username = '';
    url.password = '';
    text = url.href;
  } catch {
    // Unparseable input is shown as given; JSON quoting below keeps control characters out.
  }
  return JSON.stringify(text.length > MAX_SHOWN_URL ? `${text.slice(0, MAX_SHOWN_URL)}…` : text);
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Makes node:net connect to the checked addresses whatever name it is asked to resolve. */
export function pinnedLookup(addresses: TResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family =
      options.family === 4 || options.family === 'IPv4'
        ? 4
        : options.family === 6 || options.family === 'IPv6'
          ? 6
          : 0;
    const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
    // Asynchronous like a real resolver, so net's listeners are attached before results arrive.
    process.nextTick(() => {
      const first = usable[0];
      if (!first) {
        const err: NodeJS.ErrnoException = new Error('no checked address of the requested family');
        err.code = 'ENOTFOUND';
        callback(err, '');
      } else if (options.all) {
        callback(null, usable);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

function readCapped(res: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        reject(tooLarge());
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(new Error('connection closed before the body was complete'));
    });
  });
}

export function createUrlGuard(options: TUrlGuardOptions): TUrlGuard {
  const lookup = options.lookup ?? defaultLookup;
  // Production reaches only the standard web ports. Other ports on public hosts are where mail
  // servers, databases and admin consoles listen; letting callers choose them would turn the
  // fetcher into a port scanner and a way to speak HTTP at non-HTTP services. Locally the service
  // and its fixtures run on arbitrary ports of the developer's own machine, so any port is fine.
  const allowedPorts = new Set(options.allowHttp ? [443, 80] : [443]);

  const isAllowed = (cls: TAddressClass) => cls === 'public' || (cls === 'loopback' && options.allowLoopback);

  /** Everything that can be decided from the URL alone; returns the port to connect to. */
  function checkUrl(url: URL): number {
    const scheme = url.protocol;
    if (scheme !== 'https:' && !(scheme === 'http:' && options.allowHttp)) {
      const accepted = options.allowHttp ? 'http and https URLs' : 'https URLs';
      throw new UrlRefusal('scheme', `only ${accepted} are accepted`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new UrlRefusal('credentials', 'URLs with a user name or password are not accepted');
    }
    const port = url.port === '' ? (scheme === 'https:' ? 443 : 80) : Number(url.port);
    if (!options.allowLoopback && !allowedPorts.has(port)) {
      throw new UrlRefusal('port', `only port ${[...allowedPorts].join(' or ')} is accepted`);
    }
    return port;
  }

  async function resolveChecked(url: URL, signal: AbortSignal): Promise<TResolvedAddress[]> {
    const literal = ipLiteralOfHostname(url.hostname);
    let found: TResolvedAddress[];
    if (literal !== undefined) {
      found = [{ address: literal, family: isIP(literal) }];
    } else {
      try {
        found = await untilAborted(lookup(url.hostname), signal);
      } catch (err) {
        if (signal.aborted) throw err;
        throw new UrlRefusal('unreachable', 'the host name could not be resolved', { cause: err });
      }
    }
    if (found.length === 0) throw new UrlRefusal('unreachable', 'the host name could not be resolved');
    // Every address is checked: a resolver may hand back a public and a private address together,
    // and the connection may go to any of them.
    const addresses = found.map(({ address }) => ({ address, family: isIP(address) }));
    for (const { address } of addresses) {
      if (!isAllowed(classifyAddress(address))) {
        throw new UrlRefusal('address', 'the host does not resolve to a public internet address');
      }
    }
    return addresses;
  }

  return {
    async check(url, signal) {
      const port = checkUrl(url);
      const addresses = await resolveChecked(url, signal);
      const literal = ipLiteralOfHostname(url.hostname);
      return {
        // A name host stays the name so that TLS verifies the certificate against it; the pinned
        // lookup decides where the socket actually goes.
        host: literal ?? url.hostname,
        port,
        lookup: pinnedLookup(addresses),
        agent: false,
        // SNI carries host names only (RFC 6066), so IP-literal hosts send none.
        ...(url.protocol === 'https:' && literal === undefined ? { servername: url.hostname } : {}),
      };
    },
  };
}

export function createSafeFetcher(options: TSafeFetchOptions): TFetchUrl {
  const guard = createUrlGuard(options);

  const fail = (
    ctx: TFetchContext,
    reason: TUnsafeUrlReason,
    problem: string,
    extra: { status?: number; cause?: unknown } = {},
  ) => {
    const verb = FAILURES.has(reason) ? 'Could not fetch' : 'Refused to fetch';
    const via = ctx.redirects > 0 && reason !== 'redirects' ? `after ${ctx.redirects} redirect(s), ` : '';
    return new UnsafeUrlError(reason, `${verb} ${ctx.shown}: ${via}${problem}.`, extra);
  };

  async function checkHop(url: URL, ctx: TFetchContext): Promise<TConnectTarget> {
    try {
      return await guard.check(url, ctx.signal);
    } catch (err) {
      if (err instanceof UrlRefusal) throw fail(ctx, err.reason, err.problem, { cause: err.cause });
      throw err;
    }
  }

  async function exchange(url: URL, target: TConnectTarget, ctx: TFetchContext): Promise<THopOutcome> {
    const requestOptions: https.RequestOptions = {
      ...target,
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: {
        host: url.host,
        accept: '*/*',
        // Unrequested compression would make the size cap count compressed bytes only.
        'accept-encoding': 'identity',
        'user-agent': 'open-esign-file-fetcher',
      },
    };
    const req = (url.protocol === 'https:' ? https : http).request(requestOptions);
    let res: IncomingMessage | undefined;
    const onAbort = () => {
      req.destroy(new Error('aborted'));
      res?.destroy(new Error('aborted'));
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        req.on('response', resolve);
        req.on('error', reject);
        req.end();
      });
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        res.destroy();
        return { kind: 'redirect', location };
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw fail(ctx, 'http_status', `the server answered with HTTP status ${status}`, { status });
      }
      const tooLarge = () => fail(ctx, 'too_large', `the file is larger than ${options.maxBytes} bytes`);
      const declared = Number(res.headers['content-length']);
      if (declared > options.maxBytes) {
        res.destroy();
        throw tooLarge();
      }
      const bytes = await readCapped(res, options.maxBytes, tooLarge);
      return { kind: 'file', bytes, contentType: res.headers['content-type'] };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      // Whatever happened, this hop's socket is finished with.
      if (!res?.complete) req.destroy();
    }
  }

  return async function fetchUrl(rawUrl: string): Promise<TFetchedFile> {
    const controller = new AbortController();
    const ctx: TFetchContext = { shown: describeUrl(rawUrl), signal: controller.signal, redirects: 0 };
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        throw new UnsafeUrlError('invalid_url', `${ctx.shown} is not a valid absolute URL.`);
      }
      for (;;) {
        const target = await checkHop(url, ctx);
        const outcome = await exchange(url, target, ctx);
        if (outcome.kind === 'file') {
          return { bytes: outcome.bytes, contentType: outcome.contentType, finalUrl: url.href };
        }
        if (ctx.redirects >= options.maxRedirects) {
          throw fail(ctx, 'redirects', `it redirects more than ${options.maxRedirects} time(s)`);
        }
        ctx.redirects += 1;
        try {
          // Relative locations are resolved against the URL that answered with them.
          url = new URL(outcome.location, url);
        } catch {
          throw fail(ctx, 'invalid_url', 'the redirect location is not a valid URL');
        }
      }
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw err;
      if (controller.signal.aborted) {
        throw fail(ctx, 'timeout', `it did not finish within ${options.timeoutMs} ms`, { cause: err });
      }
      throw fail(ctx, 'unreachable', 'the server could not be reached or closed the connection', {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
    }
  };
}
