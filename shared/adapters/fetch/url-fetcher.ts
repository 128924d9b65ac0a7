import type { TUrlFetcher } from '#shared/domain/ports/files';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { createSafeFetcher } from './safe-fetch';

/** Documents given as file_url: the guarded fetcher with the service's size and time limits. */
export function createUrlFetcher(rules: { allowHttp: boolean; allowLoopback: boolean }): TUrlFetcher {
  const fetchUrl = createSafeFetcher({
    ...rules,
    maxBytes: BUNDLE_LIMITS.documentBytes,
    // Leaves room inside the Lambda's 28 s for the rest of the request.
    timeoutMs: 15_000,
    maxRedirects: 5,
  });
  return { fetchUrl };
}
