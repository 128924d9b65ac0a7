import { ID_FORMATS, isIdKind } from '#shared/domain/ids';
import type { TBodyOptions } from './body';
import { MethodNotAllowedError, RouteNotFoundError } from './errors';
import type { TRequest, TResponse } from './request';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TRoute {
  method: THttpMethod;
  /**
   * Below /api/v2, no trailing slash; `{name}` captures one segment, `{name:kind}` one that must
   * have the shape of that kind of id (shared/domain/ids.ts), else the path names nothing (404).
   */
  path: string;
  handler: (req: TRequest) => Promise<TResponse>;
  body?: Partial<TBodyOptions>;
  /**
   * Its answer holds a secret shown once (a new API key): it is never kept for Idempotency-Key
   * retries, where it would be stored and could be read again; the key is ignored.
   */
  secretAnswer?: boolean;
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
  params: { name: string; format?: RegExp }[];
}

export interface TMatch {
  route: TRoute;
  params: Record<string, string>;
}

function compile(route: TRoute): TCompiled {
  const params: TCompiled['params'] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)(?::([\w-]+))?\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const kind = m[2];
      if (kind !== undefined && !isIdKind(kind))
        throw new Error(`Unknown id kind "${kind}" in ${route.path}`);
      params.push({ name: m[1]!, ...(kind ? { format: ID_FORMATS[kind] } : {}) });
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params };
}

/** The route's parameters, decoded; undefined when one cannot be decoded or has not its id's shape. */
function paramsOf(c: TCompiled, m: RegExpExecArray): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [i, p] of c.params.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(m[i + 1]!);
    } catch {
      return undefined; // a malformed %-escape names nothing that exists
    }
    if (p.format && !p.format.test(value)) return undefined;
    params[p.name] = value;
  }
  return params;
}

export function createRouter(routes: TRoute[]): (method: string, path: string) => TMatch {
  const compiled = routes.map(compile);
  return (method, path) => {
    const allow = new Set<string>();
    for (const c of compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      const params = paramsOf(c, m);
      // An id that cannot exist matches no route: another route may still take the segment
      // (`/webhooks/headers` beside `/webhooks/{id:uuid}`), else the answer is 404.
      if (!params) continue;
      if (c.route.method === method) return { route: c.route, params };
      allow.add(c.route.method);
    }
    if (allow.size > 0) throw new MethodNotAllowedError(method, [...allow]);
    throw new RouteNotFoundError();
  };
}
