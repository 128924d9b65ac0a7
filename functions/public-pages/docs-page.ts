import type { TConfig } from '#shared/config';
import type { TRoute } from '#shared/http/router';
import { translator } from '#shared/i18n/catalogs';
import { directionOf, languageFromAcceptLanguage } from '#shared/i18n/languages';
import { OPENAPI_PATH } from '#shared/openapi/path';
import { signingAssets } from './assets';
import { basePathBefore, esc } from './html';
import { securityHeaders } from './security-headers';

/**
 * GET /docs: the API reference, readable in a browser. Swagger UI (the swagger-ui-dist package,
 * shipped as page assets, so the page works offline and the Lambda's code does not grow) renders
 * the service's own /api/v2/openapi.json; public/docs.js starts it, since the pages' CSP allows
 * no inline script, and public/docs.css makes it meet WCAG 2.2 AA where Swagger UI's own does not.
 */
export function docsRoutes(deps: { config: TConfig }): TRoute[] {
  return [
    {
      method: 'GET',
      path: '/docs',
      handler: async (req) => {
        const base = basePathBefore(req, '/docs');
        const assets = `${base}/sign/assets/${signingAssets().version}`;
        const lang = languageFromAcceptLanguage(req.header('accept-language')) ?? 'en';
        const title = translator(lang)('page.apiReference');
        const text = `<!doctype html>
<html lang="${lang}" dir="${directionOf(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${esc(assets)}/swagger-ui/swagger-ui.css">
<link rel="stylesheet" href="${esc(assets)}/docs.css">
</head>
<body>
<main id="swagger-ui" aria-label="${esc(title)}" data-spec="${esc(`${base}/api/v2${OPENAPI_PATH}`)}"></main>
<script src="${esc(assets)}/swagger-ui/swagger-ui-bundle.js"></script>
<script src="${esc(assets)}/docs.js"></script>
</body>
</html>
`;
        return {
          status: 200,
          text,
          headers: {
            ...securityHeaders(deps.config, { https: req.url.protocol === 'https:' }),
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'public, max-age=300',
          },
        };
      },
    },
  ];
}
