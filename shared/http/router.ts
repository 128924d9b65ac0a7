import type { TBodyOptions } from './body';
import { MethodNotAllowedError, RouteNotFoundError } from './errors';
import type { TRequest, TResponse } from './request';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TRoute {
  method: THttpMethod;
  /** Below /api/v2, no trailing slash; `{name}` captures one segment. */
  path: string;
  handler: (req: TRequest) => Promise<TResponse>;
  body?: Partial<TBodyOptions>;
}

export const API_PREFIX = '/api/v2';

/** `/api/v2/persons/abc/` → `/persons/abc`; the trailing slash is optional on every path. */
export function normalizePath(rawPath: string): string {
  let p = rawPath.startsWith(API_PREFIX) ? rawPath.slice(API_PREFIX.length) : rawPath;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p === '' ? '/' : p;
}

interface TCompiled {
  route: TRoute;
  pattern: RegExp;
  names: string[];
}

export interface TMatch {
  route: TRoute;
  params: Record<string, string>;
}

export function createRouter(routes: TRoute[]): (method: string, path: string) => TMatch {
  const compiled: TCompiled[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((seg) => {
        const m = /^\{(\w+)\}$/.exec(seg);
        if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]!);
        return '([^/]+)';
      })
      .join('/');
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
  return (method, path) => {
    const allow = new Set<string>();
    for (const c of compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      if (c.route.method === method) {
        const params: Record<string, string> = {};
        try {
          c.names.forEach((n, i) => {
            params[n] = decodeURIComponent(m[i + 1]!);
          });
        } catch {
          throw new RouteNotFoundError(); // a malformed %-escape names nothing that exists
        }
        return { route: c.route, params };
      }
      allow.add(c.route.method);
    }
    if (allow.size > 0) throw new MethodNotAllowedError(method, [...allow]);
    throw new RouteNotFoundError();
  };
}
