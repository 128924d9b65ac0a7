import { onFirstUse } from '#shared/adapters/on-first-use';
import type { TRequest } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import type { TVerifyDeps, TVerifyHandlers } from './verify-page';

/** A Lambda takes at most 6 MB of request; the gateway refuses more before that. */
const MAX_BYTES = 6 * 1024 * 1024;
const UPLOAD = { accept: ['upload', 'multipart'] as ('upload' | 'multipart')[], maxBytes: MAX_BYTES };

/**
 * The public verification page's routes (ARCHITECTURE.md, "Evidence"). The page, its script and
 * the check (verify-page.ts, with the seal's reader and the verdict's words) are imported by the
 * first request to /verify: a signer opening a signing page does not load them.
 */
export function verifyRoutes(deps: TVerifyDeps): TRoute[] {
  const handlers = onFirstUse(() =>
    import('./verify-page').then(({ verifyHandlers }) => verifyHandlers(deps)),
  );
  const handler = (name: keyof TVerifyHandlers) => async (req: TRequest) => (await handlers())[name](req);
  return [
    { method: 'GET', path: '/verify', handler: handler('page') },
    { method: 'POST', path: '/verify', body: UPLOAD, handler: handler('checkPage') },
    { method: 'POST', path: '/verify/api/check', body: UPLOAD, handler: handler('checkApi') },
    { method: 'GET', path: '/verify/assets/verify.js', handler: handler('script') },
  ];
}
