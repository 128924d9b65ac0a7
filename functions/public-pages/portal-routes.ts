import { onFirstUse } from '#shared/adapters/on-first-use';
import type { TRequest } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import type { TPortalHandlers, TPortalRouteDeps } from './portal-page';

/**
 * Portal smart links' routes (ARCHITECTURE.md, "Envelope templates"). The page and the start of
 * a signing (portal-page.ts, with bundle creation from the template and the document intake) are
 * imported by the first request to /portal: a signer opening a signing page does not load them.
 */
export function portalRoutes(deps: TPortalRouteDeps): TRoute[] {
  const handlers = onFirstUse(() =>
    import('./portal-page').then(({ portalHandlers }) => portalHandlers(deps)),
  );
  const handler = (name: keyof TPortalHandlers) => async (req: TRequest) => (await handlers())[name](req);
  return [
    { method: 'GET', path: '/portal/{id:envelope-template}', handler: handler('form') },
    { method: 'POST', path: '/portal/{id:envelope-template}', handler: handler('start') },
  ];
}
