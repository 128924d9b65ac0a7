import type { TConfig } from '#shared/config';
import type { TRoute } from '#shared/http/router';
import { OPENAPI_PATH } from '#shared/openapi/path';

/**
 * GET /api/v2/openapi.json: the API's description, without an API key. It says only what the
 * public documentation says (paths, shapes, the auth scheme), nothing of any account, so a
 * client generator or a browser tool may fetch it as is (hence CORS open to any origin). Built
 * once per base URL: it changes only with a deployment. The builder (every schema's description)
 * is imported on the first call, so it weighs nothing on the signing pages' cold start.
 */
export function openApiRoutes(deps: { config: TConfig }): TRoute[] {
  const built = new Map<string, string>();
  return [
    {
      method: 'GET',
      path: OPENAPI_PATH,
      handler: async (req) => {
        // The local runtime learns its base URL once it listens: read it per request.
        const base = deps.config.publicBaseUrl || req.url.origin;
        let text = built.get(base);
        if (text === undefined) {
          const { buildOpenApiDocument } = await import('#shared/openapi/document');
          text = JSON.stringify(buildOpenApiDocument(base));
          built.set(base, text);
        }
        return {
          status: 200,
          text,
          headers: {
            'Content-Type': 'application/json',
            'Cache-Control': 'public, max-age=300',
            'Access-Control-Allow-Origin': '*',
          },
        };
      },
    },
  ];
}
