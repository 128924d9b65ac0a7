// The console's files as the local runtime serves them (on AWS, CloudFront in front of S3 will):
// any path under /console/ answers the page, which routes in the browser; /console/assets/<name>
// answers a built asset, cached for a year since its name changes with its content; the page is
// revalidated every time, so a new build shows at the next load. /console/api/ is not ours: the
// console's session endpoints answer there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders, type TPolicyPlace } from '#functions/public-pages/security-headers';
import type { TConfig } from '#shared/config';
import { ASSETS_PATH, buildConsole, CONSOLE_BASE, type TConsoleBuild } from './build';

/** A year: the longest a cache keeps anything, for files whose name is their content's hash. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** The signing pages' headers (no inline code, never framed); the console may frame the service's own editor. */
export const consoleHeaders = (config: TPolicyPlace, https = false): Record<string, string> =>
  securityHeaders(config, { https, frameSources: ["'self'"] });

type TPages = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/** Answers the console's paths; builds the console on the first request and keeps it. */
export function consolePages(config: TConfig, built: () => Promise<TConsoleBuild> = buildConsole): TPages {
  let cached: Promise<TConsoleBuild> | undefined;
  const current = () => {
    cached ??= built().catch((err) => {
      cached = undefined; // a failed build is tried again at the next request
      throw err;
    });
    return cached;
  };
  return async (req, res, url) => {
    const p = url.pathname;
    if (p !== '/console' && !p.startsWith(CONSOLE_BASE)) return false;
    if (p.startsWith(`${CONSOLE_BASE}api/`) || p === `${CONSOLE_BASE}api`) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const https = (config.publicBaseUrl ?? '').startsWith('https:');
    if (p === '/console') {
      res.writeHead(308, { location: CONSOLE_BASE, 'cache-control': REVALIDATE });
      res.end();
      return true;
    }
    const site = await current();
    const headers = consoleHeaders(config, https);
    if (p.startsWith(ASSETS_PATH)) {
      const asset = site.assets.get(p.slice(ASSETS_PATH.length));
      if (!asset) {
        res.writeHead(404, {
          ...headers,
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': REVALIDATE,
        });
        res.end('Not found.\n');
        return true;
      }
      res.writeHead(200, {
        ...headers,
        'content-type': asset.contentType,
        'content-length': asset.contents.byteLength,
        'cache-control': IMMUTABLE,
      });
      res.end(req.method === 'HEAD' ? undefined : asset.contents);
      return true;
    }
    const html = Buffer.from(site.indexHtml);
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
      'content-length': html.byteLength,
      'cache-control': REVALIDATE,
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return true;
  };
}
