import { byApiKey, type TActing, type TActor } from '#shared/domain/bundles/actor';
import type { TIdKind } from '#shared/domain/ids';
import type { TPage } from '#shared/domain/paging';
import type { TAuthContext } from './auth-context';
import { listRoute, type TListed } from './list-route';
import type { TRequest } from './request';
import type { THttpMethod, TRoute } from './router';

/** A route that answers `status` with the body `run` gives, already in wire form. */
export function answerRoute(
  method: THttpMethod,
  path: string,
  status: number,
  run: (req: TRequest) => Promise<unknown>,
): TRoute {
  return { method, path, handler: async (req) => ({ status, body: await run(req) }) };
}

/** The caller a use case acts for: the key's account, or (where the user counts too) its whole context. */
export const accountOf = (req: TRequest): string => req.auth.accountId;
export const authOf = (req: TRequest): TAuthContext => req.auth;
/**
 * Who acts in a request, as its audit events record it: the API key it came with, or the user
 * signed in to the console.
 */
export const actorOf = (req: TRequest): TActor =>
  req.auth.via === 'session' ? { type: 'user', userId: req.auth.userId } : byApiKey(req.auth.keyId);
/** The account and who acts for it, for use cases that write audit events. */
export const actingOf = (req: TRequest): TActing => ({ accountId: req.auth.accountId, by: actorOf(req) });

/**
 * The use cases of one kind of resource as the domain writes them (ports, caller, id, body), but
 * the list, which reads its own filters from the request.
 */
export interface TResourceUseCases<D, C, T> {
  list?: (req: TRequest, page: TPage) => Promise<TListed<T>>;
  /** `retrySeed`: under an Idempotency-Key, for a new item's id derived from the request. */
  create?: (deps: D, caller: C, body: unknown, retrySeed?: string) => Promise<T>;
  get?: (deps: D, caller: C, id: string) => Promise<T>;
  replace?: (deps: D, caller: C, id: string, body: unknown) => Promise<T>;
  update?: (deps: D, caller: C, id: string, body: unknown) => Promise<T>;
  remove?: (deps: D, caller: C, id: string) => Promise<unknown>;
}

/**
 * The usual routes of a resource at `path`: GET lists (a page, as listRoute answers it) and POST
 * creates (201); at `path/{id:kind}` GET, PUT (replace) and PATCH (update) answer the resource
 * (200) and DELETE answers 204 with no body. Only the use cases given are routed, in that order,
 * which is the order a 405's Allow lists.
 */
export function resourceRoutes<D, C, T>(
  path: string,
  idKind: TIdKind,
  on: { deps: D; caller: (req: TRequest) => C; toBody: (item: T, req: TRequest) => unknown },
  useCases: TResourceUseCases<NoInfer<D>, NoInfer<C>, T>,
): TRoute[] {
  const { deps, caller, toBody } = on;
  const { list, create, get, replace, update, remove } = useCases;
  const one = `${path}/{id:${idKind}}`;
  const id = (req: TRequest) => req.params.id!;
  const answering: [THttpMethod, string, number, ((req: TRequest) => Promise<T>) | undefined][] = [
    ['POST', path, 201, create && ((req) => create(deps, caller(req), req.body, req.retrySeed))],
    ['GET', one, 200, get && ((req) => get(deps, caller(req), id(req)))],
    ['PUT', one, 200, replace && ((req) => replace(deps, caller(req), id(req), req.body))],
    ['PATCH', one, 200, update && ((req) => update(deps, caller(req), id(req), req.body))],
  ];
  const routes = list ? [listRoute(path, list, toBody)] : [];
  for (const [method, at, status, run] of answering) {
    if (run) routes.push(answerRoute(method, at, status, async (req) => toBody(await run(req), req)));
  }
  if (remove) {
    routes.push({
      method: 'DELETE',
      path: one,
      handler: async (req) => {
        await remove(deps, caller(req), id(req));
        return { status: 204 };
      },
    });
  }
  return routes;
}
