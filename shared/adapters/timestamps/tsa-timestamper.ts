// The timestamp authorities the service asks, in the operator's order: the first answer that passes
// every check of tsp.ts is the token; a TSA that is down, slow or answers anything wrong is passed
// over with its reason, and when none answers well the caller hears why each failed.
// TSA URLs and their credentials come from the operator's configuration, never from a sender, so
// they are called directly rather than through the file_url guard.
import { TimestampUnavailableError } from '#shared/domain/errors';
import type { TTimestamper, TTimestampToken } from '#shared/domain/ports/evidence';

export { TimestampUnavailableError };

import { checkTimestampResponse, TimestampRefusedError, timestampRequest } from './tsp';

export interface TTsa {
  url: string;
  /** Sent with every request, e.g. `authorization: Basic …`; never logged. */
  headers?: Record<string, string>;
}

/** How long one authority has to answer before the next is asked. */
export const TSA_TIMEOUT_MS = 10_000;

/** The URL without credentials or query, for messages. */
const shown = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
};

export function createTsaTimestamper(tsas: readonly TTsa[], timeoutMs = TSA_TIMEOUT_MS): TTimestamper {
  return {
    async timestamp(imprint: Buffer): Promise<TTimestampToken> {
      const failures: { url: string; reason: string }[] = [];
      for (const tsa of tsas) {
        // A fresh nonce for each authority: an answer meant for another request is refused.
        const request = timestampRequest(imprint);
        try {
          const res = await fetch(tsa.url, {
            method: 'POST',
            headers: { ...tsa.headers, 'content-type': 'application/timestamp-query' },
            body: request.der,
            redirect: 'error',
            signal: AbortSignal.timeout(timeoutMs),
          });
          const body = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200) throw new TimestampRefusedError(`HTTP ${res.status}`);
          const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
          if (type !== 'application/timestamp-reply') {
            throw new TimestampRefusedError(
              `the answer is ${type || 'untyped'}, not application/timestamp-reply`,
            );
          }
          const checked = await checkTimestampResponse(body, request);
          return { ...checked, tsaUrl: shown(tsa.url) };
        } catch (err) {
          const e = err as Error;
          const reason =
            e.name === 'TimeoutError' || e.name === 'AbortError'
              ? `no answer within ${Math.round(timeoutMs / 1000)} s`
              : e instanceof TimestampRefusedError
                ? e.message
                : `unreachable (${e.message})`;
          failures.push({ url: shown(tsa.url), reason });
        }
      }
      throw new TimestampUnavailableError(failures);
    },
  };
}
