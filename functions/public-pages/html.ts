import type { TRequest } from '#shared/http/request';

/** Text made safe for HTML (body and quoted attributes), for the server-rendered pages. */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The path the service is served under, before the page's own `mount` ('/sign/', '/portal/',
 * '/verify'): '' locally, `/<stage>` on API Gateway's own URL.
 */
export function basePathBefore(req: TRequest, mount: string): string {
  const p = req.url.pathname;
  const i = p.lastIndexOf(mount);
  return i > 0 ? p.slice(0, i) : '';
}
