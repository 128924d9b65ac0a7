import type { TConfig } from '../../shared/config';
import type { TRoute } from '../../shared/http/router';
import { buildOpenApiDocument, OPENAPI_PATH } from '../../shared/openapi/document';

/**
 * GET /api/v2/openapi.json: the API's description, without an API key. It says only what the
 * public documentation says (paths, shapes, the auth scheme), nothing of any account, so a
 * client generator or a browser tool may fetch it as is (hence CORS open to any origin). Built
 * once per base URL: it changes only with a deployment.
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
