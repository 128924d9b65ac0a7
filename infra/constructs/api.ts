// The REST API and its security: the key-checking authorizer, the usage plan that meters and
// throttles each key, the gateway's own answers in the API's error body, the WAF, and the
// routes of infra/api-routes.ts with their invoke permissions.
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  type CfnAuthorizer,
  EndpointType,
  LogGroupLogDestination,
  Period,
  RequestAuthorizer,
  RestApi,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { consoleKeys } from '#shared/adapters/dynamodb/entities/console';
import { API_ROUTES, PUBLIC_API_ROUTES, PUBLIC_ROUTES, type TFunctionName } from '../api-routes';
import { acceptFinding } from '../nag';
import type { TStageConfig } from '../stage-config';
import { ApiFunction, retentionDays } from './api-function';
import type { Edge } from './edge';
import { addGatewayResponses } from './gateway-responses';
import type { Storage } from './storage';
import { publicPathLimitsAcl } from './waf';

export const API_PREFIX = ['api', 'v2'] as const;

/** Why each public resource has no API Gateway authorizer, as cdk-nag's reviewer reads it. */
const PUBLIC_BECAUSE: Record<(typeof PUBLIC_ROUTES)[number]['resource'], string> = {
  sign: 'signers have no API key; their link and session tokens (unguessable, expiring) are checked by the function, and session guessing is rate-limited per address by the WAF.',
  verify:
    'anyone may check a document against the evidence; the check reveals nothing else and is rate-limited per address by the WAF.',
  portal:
    "smart links are public forms by design; each template's own counters and the WAF's per-address limit hold off abuse.",
  payments: "Stripe's webhook carries no API key; the function verifies Stripe's signature on every call.",
  prepare:
    'template preparation links carry their own unguessable, expiring token, checked by the function and rate-limited by the WAF.',
  docs: 'the API reference page shows only the public API description, as /api/v2/openapi.json does, to anyone.',
  'console/api':
    'the console signs in with one-time emailed links and session cookies (unguessable, hashed, expiring), checked by the function, which throttles sign-in per address and per client address.',
  mcp: 'MCP clients send the key as `Bearer`, which the authorizer does not take; the function checks the key with the API itself before any tool runs.',
};

/** Made in the stack's own scope, so logical IDs stay as they were (see Storage). */
export class Api {
  readonly api: RestApi;
  readonly usagePlan: UsagePlan;
  /** The execute-api origin, which always serves the stage, custom domain or not. */
  readonly executeApiOrigin: string;
  private readonly config: TStageConfig;

  constructor(stack: Stack, id: string, config: TStageConfig, storage: Storage) {
    this.config = config;
    const keep = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    // No USAGE_PLAN_ID here: the API's Authorizer resource refers to this function's ARN, and the
    // usage plan depends on the API's deployment, so that value would close a dependency cycle.
    const authorizerFn = new ApiFunction(stack, 'AuthorizerFunction', {
      name: 'authorizer',
      config,
      description: 'API key → account, for every API request',
      environment: storage.env,
      // One key lookup: anything slower is a fault, and failing fast beats holding the request.
      timeout: Duration.seconds(5),
    });
    // An API key's and a console session's items, each read by its key: no query, no batch.
    authorizerFn.grantTable(storage.table, 'lookup');
    // A console session used past half its life is renewed by the authorizer: UpdateItem on
    // session items alone (their partition keys), nothing else of the table.
    authorizerFn.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [storage.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [consoleKeys.session('*').pk] } },
      }),
    );

    // No identity source and no result cache: a console request carries a session cookie and no
    // Authorization header, and API Gateway answers 401 itself for a missing identity source
    // when caching is on. The function keeps key lookups in memory instead (API_KEY_CACHE_SECONDS),
    // and a session is checked afresh on every request, so signing out takes effect at once.
    authorizerFn.fn.addEnvironment('API_KEY_CACHE_SECONDS', String(config.authorizerCacheTtlSeconds));
    const authorizer = new RequestAuthorizer(stack, 'ApiKeyAuthorizer', {
      handler: authorizerFn.live,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    // CDK writes an empty IdentitySource for no sources; API Gateway's reference makes the property
    // optional only when caching is off, and names no empty value, so leave it out altogether.
    (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');

    const accessLogs = config.accessLogging
      ? new LogGroup(stack, 'AccessLogs', {
          retention: retentionDays(config.logRetentionDays),
          removalPolicy: keep,
        })
      : undefined;

    const api = new RestApi(stack, 'Api', {
      restApiName: id,
      description: 'eSignature API, wire-compatible with BlueInk API v2',
      endpointTypes: [EndpointType.REGIONAL],
      // The authorizer returns the caller's API key as usageIdentifierKey, so usage plans meter the
      // `Authorization: Token …` header the BlueInk clients send, not an x-api-key header.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Every body reaches the handlers base64-encoded whatever its type (JSON, forms, multipart
      // with PDFs), so they decode one way only, as the local runtime does.
      binaryMediaTypes: ['*/*'],
      // Access logs need the account-wide API Gateway → CloudWatch role; create it only when asked,
      // since it is one setting per account and region shared by every API there.
      cloudWatchRole: config.accessLogging,
      deployOptions: {
        stageName: config.stage,
        // X-Ray from the edge: a request's trace starts at the stage and goes on into its function.
        tracingEnabled: true,
        ...(accessLogs
          ? {
              accessLogDestination: new LogGroupLogDestination(accessLogs),
              accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
            }
          : {}),
      },
      // Every method added to this API, now or by later endpoint groups, needs a key by default.
      defaultMethodOptions: { authorizer, apiKeyRequired: true },
    });
    acceptFinding(
      api,
      'APIG2',
      "Bodies are checked by the handlers' zod schemas, which answer in the API's own error body (BlueInk's wire format); an API Gateway validator would answer first, in its own shape.",
    );
    acceptFinding(
      api,
      'COG4',
      "Callers authenticate with API keys (BlueInk's `Authorization: Token` scheme), checked by the Lambda request authorizer; the service has no Cognito users. Public routes are accepted one by one below.",
    );
    if (!accessLogs)
      acceptFinding(
        api.deploymentStage,
        'APIG1',
        'Access logs need the account-wide API Gateway CloudWatch role, which this stack creates only when the operator asks (-c accessLogging=true); every function logs each request it serves with its request id meanwhile.',
      );
    acceptFinding(
      api.deploymentStage,
      'APIG6',
      "Execution logging needs the same account-wide role; every route is a Lambda proxy whose function logs the request and any error, and the API's 5xx count has an alarm.",
    );
    addGatewayResponses(api);

    this.usagePlan = api.addUsagePlan('UsagePlan', {
      name: `${id}-default`,
      description: 'Default limits for every API key of this stage',
      quota: { limit: config.rateLimits.quotaPerDay, period: Period.DAY },
      throttle: {
        rateLimit: config.rateLimits.throttleRatePerSecond,
        burstLimit: config.rateLimits.throttleBurst,
      },
      apiStages: [{ api, stage: api.deploymentStage }],
    });

    // The API's own address, which the documents bucket's CORS also names: the service's links
    // are on the distribution in front of it (edge.ts). Built from the API's id alone: a
    // reference to its stage would close a dependency cycle (see above).
    this.executeApiOrigin = `https://${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`;

    this.api = api;
  }

  /**
   * The WAF on the stage: only requests that came through the distribution (its secret header),
   * then the per-address limits on the public paths, by the address the distribution saw.
   */
  requireEdge(edge: Edge, config: TStageConfig): void {
    const stack = Stack.of(this.api);
    if (config.waf) {
      const publicPathLimits = publicPathLimitsAcl(stack, config, edge.originVerify);
      new CfnWebACLAssociation(stack, 'PublicPathLimitsAssociation', {
        resourceArn: this.api.deploymentStage.stageArn,
        webAclArn: publicPathLimits.attrArn,
      });
    } else {
      acceptFinding(
        this.api.deploymentStage,
        'APIG3',
        "The operator turned this stack's WAF off (-c waf=false) for a stage fronted by a WAF of its own; the public paths then have no per-address limits here.",
      );
    }
  }

  /**
   * Each endpoint group serves its path and everything below it; handlers route within. The
   * route table is shared with the local runtime, which routes by the same entries.
   */
  serve(functions: Record<TFunctionName, ApiFunction>): void {
    const { api, config } = this;
    const v2 = API_PREFIX.reduce((resource, part) => resource.addResource(part), api.root);
    // A function may serve several resources (bundles: /api/v2/bundles and /api/v2/verify): its
    // invoke permissions are granted once, for all of them.
    const invokePaths = new Map<TFunctionName, string[]>();
    const served = (fn: TFunctionName, path: string) =>
      invokePaths.set(fn, [...(invokePaths.get(fn) ?? []), path, `${path}/*`]);
    for (const route of API_ROUTES) {
      const target = functions[route.fn];
      const resource = v2.addResource(route.resource);
      const integration = target.integration();
      resource.addMethod('ANY', integration);
      resource.addResource('{proxy+}').addMethod('ANY', integration);
      served(route.fn, resource.path);
    }
    for (const route of PUBLIC_API_ROUTES) {
      const resource = v2.addResource(route.resource);
      acceptFinding(
        resource,
        'APIG4',
        `Public by design: /api/v2/${route.resource} is the API's description, which says nothing of any account.`,
      );
      // As the other resources: the function answers 405 for another method, 404 below it.
      const integration = functions[route.fn].integration();
      const open = { authorizationType: AuthorizationType.NONE, apiKeyRequired: false };
      resource.addMethod('ANY', integration, open);
      resource.addResource('{proxy+}').addMethod('ANY', integration, open);
      served(route.fn, resource.path);
    }
    for (const route of PUBLIC_ROUTES) {
      const target = functions[route.fn];
      // Nested resources (`console/api`) share their parents with any other route below them.
      const resource = api.root.resourceForPath(route.resource);
      const integration = target.integration();
      const open = { authorizationType: AuthorizationType.NONE, apiKeyRequired: false };
      acceptFinding(
        resource,
        'APIG4',
        `No API Gateway authorizer on /${route.resource}: ${PUBLIC_BECAUSE[route.resource]}`,
      );
      resource.addMethod('ANY', integration, open);
      resource.addResource('{proxy+}').addMethod('ANY', integration, open);
      served(route.fn, resource.path);
    }
    for (const [fn, paths] of invokePaths) functions[fn].allowInvokeFrom(api, config.stage, paths);
  }
}
