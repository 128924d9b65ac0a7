// The service's own port: the API Gateway stand-in in front of every endpoint function, with the
// authorizer, the usage plan, the WAF's per-address limits and the local pages, as on AWS.
import { buildAccountHandler } from '#functions/account/app';
import { buildAuthorizer } from '#functions/authorizer/app';
import { buildBundlesHandler } from '#functions/bundles/app';
import { buildConsoleHandler } from '#functions/console/app';
import { buildEnvelopeTemplatesHandler } from '#functions/envelope-templates/app';
import { buildMcpHandler } from '#functions/mcp/app';
import { buildPacketsHandler } from '#functions/packets/app';
import { buildPersonsHandler } from '#functions/persons/app';
import { buildPublicPagesHandler } from '#functions/public-pages/app';
import { buildTemplatesHandler } from '#functions/templates/app';
import { buildWebhooksHandler } from '#functions/webhooks/app';
import type { TStageConfig } from '../stage-config';
import { startApiGateway } from './api-gateway';
import { ownDeps } from './function-config';
import { LOCAL_STAGE } from './layout';
import { localPages } from './pages';
import { PublicPathLimiter } from './public-path-limiter';
import type { TLocalDeps, TRuntimeOptions } from './runtime-options';
import type { LocalUsagePlan } from './usage-plan';

/** Every endpoint function, by the names of the route table (infra/api-routes.ts). */
function endpointFunctions(deps: TLocalDeps, options: TRuntimeOptions, plan: LocalUsagePlan) {
  const own = ownDeps(deps);
  return {
    persons: buildPersonsHandler(own('persons')),
    // Keys made through the API are keys of the local plan, which refuses them once revoked.
    account: buildAccountHandler({
      ...own('account'),
      usageKeys: plan.keyRegistry(),
    }),
    bundles: buildBundlesHandler(own('bundles')),
    packets: buildPacketsHandler(own('packets')),
    templates: buildTemplatesHandler(own('templates')),
    webhooks: buildWebhooksHandler(own('webhooks')),
    'public-pages': buildPublicPagesHandler({
      ...own('public-pages'),
      ...(options.portalLimits ? { portalLimits: options.portalLimits } : {}),
    }),
    'envelope-templates': buildEnvelopeTemplatesHandler(own('envelope-templates')),
    mcp: buildMcpHandler(own('mcp')),
    // Locally the usage plan counts a session's requests by its usage key id alone: nothing to register.
    console: buildConsoleHandler({
      ...own('console'),
      ...(options.signInLimits ? { signInLimits: options.signInLimits } : {}),
    }),
  };
}

/** Listens on `options.port` (default 3000) of `options.host` (default loopback). */
export function startServiceApi(
  deps: TLocalDeps,
  plan: LocalUsagePlan,
  stage: TStageConfig,
  mailboxDir: string,
  options: TRuntimeOptions,
) {
  const { config, log } = deps;
  return startApiGateway({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 3000,
    stage: LOCAL_STAGE,
    plan,
    authorizerTtlMs: (options.authorizerTtlSeconds ?? stage.authorizerCacheTtlSeconds) * 1000,
    ...(options.functionTimeoutMs !== undefined ? { functionTimeoutMs: options.functionTimeoutMs } : {}),
    maxBodyBytes: 10 * 1024 * 1024,
    log,
    authorizer: buildAuthorizer(ownDeps(deps)('authorizer')),
    functions: endpointFunctions(deps, options, plan),
    publicPaths: new PublicPathLimiter({
      ...stage.publicPathLimits,
      ...(options.publicPathLimit !== undefined ? { requestsPerWindow: options.publicPathLimit } : {}),
    }),
    pages: localPages(() => `${config.publicBaseUrl}/api/v2/`, mailboxDir, config),
  });
}
