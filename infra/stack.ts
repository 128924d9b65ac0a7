// The service on AWS: one REST API with a key-checking authorizer and usage plan, one Lambda per
// endpoint group, one DynamoDB table and the documents bucket.
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  Period,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaFunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS } from '../shared/adapters/dynamodb/table';
import { sealAccountPatterns, sealChainName, sealKeyAlias } from '../shared/adapters/sealing/seal-names';
import { bulkRowsPerSecond } from '../shared/domain/bulk/bulk-batch';
import { errorBody, type TErrorCode } from '../shared/http/error-body';
import { API_ROUTES, PUBLIC_API_ROUTES, PUBLIC_ROUTES, type TFunctionName } from './api-routes';
import { ApiFunction, retentionDays } from './constructs/api-function';
import { Operations } from './constructs/operations';
import { operatorSecret } from './constructs/operator-secret';
import { queueWithDeadLetters } from './constructs/queue';
import { acceptFinding } from './nag';
import {
  PUBLIC_API_PREFIXES,
  PUBLIC_PATH_GROUPS,
  PUBLIC_PATH_LIMITED_ANSWERS,
  PUBLIC_PATH_LIMITED_LABEL,
} from './public-path-limits';
import { QUEUES } from './queues';
import type { TCustomDomain, TStageConfig } from './stage-config';

export interface EsignStackProps extends StackProps {
  config: TStageConfig;
}

/** The shape table.ts may grow into; declaring it lets the loop below handle every variant. */
interface TIndexDeclaration {
  name: string;
  partitionKey: string;
  sortKey?: string;
  projection: `${ProjectionType}`;
  nonKeyAttributes?: readonly string[];
}

const API_PREFIX = ['api', 'v2'] as const;

/** How long the documents bucket's server access logs are kept. */
export const DOCUMENT_ACCESS_LOG_DAYS = 365;
/** How long a replaced or deleted version of a stored document stays restorable. */
export const NONCURRENT_VERSION_DAYS = 90;

/** The document worker's memory (ARCHITECTURE.md, "Evidence", says how it was measured). */
export const DOCUMENT_WORKER_MEMORY_MB = 1536;

/**
 * Retry-After for API Gateway's own 429s, which cannot compute a value per request.
 * - throttled: the token bucket refills throttleRatePerSecond (≥ 1) tokens a second, so one
 *   second always frees a request.
 * - quota exceeded: the daily quota resets at 00:00 UTC, up to a day away; an hour keeps clients
 *   from hammering a closed door while still noticing the reset soon after it happens.
 */
export const RETRY_AFTER_SECONDS = { throttled: 1, quotaExceeded: 3600 } as const;

/** API Gateway's own answers (before any handler runs), rewritten into the API's error body. */
const GATEWAY_ERRORS: ReadonlyArray<{
  type: ResponseType;
  /** Absent: keep the status API Gateway chose (the DEFAULT_* families span several). */
  status?: string;
  code: TErrorCode;
  /** Absent: API Gateway's own message, which says what went wrong without internals. */
  message?: string;
  headers?: Record<string, string>;
}> = [
  {
    // No Authorization header: API Gateway answers before calling the authorizer.
    type: ResponseType.UNAUTHORIZED,
    status: '401',
    code: 'not_authenticated',
    message: 'Authentication credentials were not provided.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    // The authorizer returned a Deny policy: the key is unknown or revoked.
    type: ResponseType.ACCESS_DENIED,
    status: '401',
    code: 'authentication_failed',
    message: 'Invalid token.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    // The authorizer's usageIdentifierKey is not an API key of the usage plan.
    type: ResponseType.INVALID_API_KEY,
    status: '401',
    code: 'authentication_failed',
    message: 'Invalid token.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    type: ResponseType.THROTTLED,
    status: '429',
    code: 'throttled',
    message: 'Request was throttled.',
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.throttled) },
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    status: '429',
    code: 'throttled',
    message: 'Request was throttled: the daily request quota is used up.',
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.quotaExceeded) },
  },
  {
    // What API Gateway answers for a path (or method) no resource matches.
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: 'Not found.',
  },
  { type: ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'invalid', message: 'Request is too large.' },
  // Integration failures and timeouts (502, 504) as well as authorizer errors (500).
  { type: ResponseType.DEFAULT_5XX, code: 'error', message: 'A server error occurred.' },
  { type: ResponseType.DEFAULT_4XX, code: 'error' },
];

const MESSAGE_SLOT = '\u0000message\u0000';

/**
 * The handlers' error body (shared/http/error-body.ts) as a gateway response template. Without a
 * message, API Gateway's own goes in: `$context.error.messageString` is already a quoted JSON string.
 */
export function gatewayErrorTemplate(code: TErrorCode, message?: string): string {
  if (message !== undefined) return JSON.stringify(errorBody(code, message));
  return JSON.stringify(errorBody(code, MESSAGE_SLOT)).replaceAll(
    JSON.stringify(MESSAGE_SLOT),
    '$context.error.messageString',
  );
}

/**
 * Per-address limits on the public token paths (infra/public-path-limits.ts): one rate-based
 * rule per path group counts each client address and labels what is over the limit; two rules
 * after them block labelled requests with 429, the API's JSON error body on API paths and a short
 * page elsewhere (one rule can answer with one body only). Retry-After is the window: WAF cannot
 * compute when an address's count falls back.
 */
/**
 * The API on the operator's domain, the stage mapped at its root (TLS 1.2 or later), with the
 * operator's ACM certificate, or a new one validated in their Route 53 zone, which then also gets
 * the alias record. Answers the domain's origin.
 */
function customDomainOf(scope: Construct, api: RestApi, domain: TCustomDomain): string {
  const zone =
    'hostedZoneId' in domain
      ? HostedZone.fromHostedZoneAttributes(scope, 'DomainZone', {
          hostedZoneId: domain.hostedZoneId,
          zoneName: domain.hostedZoneName,
        })
      : undefined;
  const certificate =
    'certificateArn' in domain
      ? Certificate.fromCertificateArn(scope, 'DomainCertificate', domain.certificateArn)
      : new Certificate(scope, 'DomainCertificate', {
          domainName: domain.domainName,
          validation: CertificateValidation.fromDns(zone),
        });
  const name = api.addDomainName('Domain', {
    domainName: domain.domainName,
    certificate,
    endpointType: EndpointType.REGIONAL,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  if (zone) {
    new ARecord(scope, 'DomainRecord', {
      zone,
      recordName: domain.domainName,
      target: RecordTarget.fromAlias(new ApiGatewayDomain(name)),
    });
  }
  return `https://${domain.domainName}`;
}

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
  mcp: 'MCP clients send the key as `Bearer`, which the authorizer does not take; the function checks the key with the API itself before any tool runs.',
};

/**
 * AWS's managed rule groups after the limits: common web exploits and known bad inputs. Rules
 * listed in countOnly are counted, not enforced: SizeRestrictions_BODY blocks bodies over 8 KB,
 * and documents arrive as base64 in the body (up to 10 MB).
 */
export const MANAGED_RULE_GROUPS: ReadonlyArray<{ name: string; countOnly: readonly string[] }> = [
  { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
];

function publicPathLimitsAcl(scope: Construct, config: TStageConfig): CfnWebACL {
  const { requestsPerWindow, windowSeconds } = config.publicPathLimits;
  // The path WAF sees includes the stage (the execute-api URL); decoded and with repeated
  // slashes collapsed, as API Gateway routes it.
  const startsWith = (path: string): CfnWebACL.StatementProperty => ({
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'STARTS_WITH',
      searchString: path,
      textTransformations: [
        { priority: 0, type: 'URL_DECODE' },
        { priority: 1, type: 'NORMALIZE_PATH' },
      ],
    },
  });
  // On a custom domain the stage is mapped at the root, so the same path arrives without it.
  const pathsOf = (prefix: string) =>
    config.customDomain ? [`/${config.stage}${prefix}`, prefix] : [`/${config.stage}${prefix}`];
  const anyOf = (prefixes: readonly string[]): CfnWebACL.StatementProperty => {
    const paths = prefixes.flatMap(pathsOf);
    return paths.length === 1
      ? startsWith(paths[0]!)
      : { orStatement: { statements: paths.map(startsWith) } };
  };
  const visibility = (name: string): CfnWebACL.VisibilityConfigProperty => ({
    cloudWatchMetricsEnabled: true,
    metricName: `esign-${config.stage}-${name}`,
    sampledRequestsEnabled: true,
  });
  const overLimit: CfnWebACL.StatementProperty = {
    labelMatchStatement: { scope: 'LABEL', key: PUBLIC_PATH_LIMITED_LABEL },
  };
  const block = (body: keyof typeof PUBLIC_PATH_LIMITED_ANSWERS): CfnWebACL.RuleActionProperty => ({
    block: {
      customResponse: {
        responseCode: 429,
        customResponseBodyKey: body,
        responseHeaders: [{ name: 'Retry-After', value: String(windowSeconds) }],
      },
    },
  });
  const counting = PUBLIC_PATH_GROUPS.map(
    (group, i): CfnWebACL.RuleProperty => ({
      name: `${group.name}PerAddress`,
      priority: i,
      statement: {
        rateBasedStatement: {
          limit: requestsPerWindow,
          evaluationWindowSec: windowSeconds,
          aggregateKeyType: 'IP',
          scopeDownStatement: anyOf(group.prefixes),
        },
      },
      action: { count: {} },
      ruleLabels: [{ name: PUBLIC_PATH_LIMITED_LABEL }],
      visibilityConfig: visibility(`${group.name}PerAddress`),
    }),
  );
  const next = counting.length;
  return new CfnWebACL(scope, 'PublicPathLimits', {
    scope: 'REGIONAL',
    description:
      'Per-address limits on the public token paths, then AWS managed common and known-bad-input rules',
    defaultAction: { allow: {} },
    customResponseBodies: {
      json: { contentType: 'APPLICATION_JSON', content: PUBLIC_PATH_LIMITED_ANSWERS.json },
      page: { contentType: 'TEXT_HTML', content: PUBLIC_PATH_LIMITED_ANSWERS.page },
    },
    rules: [
      ...counting,
      {
        name: 'PublicApiOverLimit',
        priority: next,
        statement: { andStatement: { statements: [overLimit, anyOf(PUBLIC_API_PREFIXES)] } },
        action: block('json'),
        visibilityConfig: visibility('PublicApiOverLimit'),
      },
      {
        name: 'PublicPageOverLimit',
        priority: next + 1,
        statement: overLimit,
        action: block('page'),
        visibilityConfig: visibility('PublicPageOverLimit'),
      },
      ...MANAGED_RULE_GROUPS.map(
        (group, i): CfnWebACL.RuleProperty => ({
          name: group.name,
          priority: next + 2 + i,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: group.name,
              ...(group.countOnly.length > 0
                ? {
                    ruleActionOverrides: group.countOnly.map((name) => ({
                      name,
                      actionToUse: { count: {} },
                    })),
                  }
                : {}),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility(group.name),
        }),
      ),
    ],
    visibilityConfig: visibility('public-path-limits'),
  });
}

export class EsignStack extends Stack {
  constructor(scope: Construct, id: string, props: EsignStackProps) {
    super(scope, id, { ...props, terminationProtection: props.config.deletionProtection });
    const { config } = props;
    const keep = config.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    Tags.of(this).add('project', 'open-esign');
    Tags.of(this).add('stage', config.stage);

    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.deletionProtection,
      removalPolicy: keep,
      // Short-lived items (the portal's abuse counters) carry `ttl`, epoch seconds.
      timeToLiveAttribute: 'ttl',
    });
    const indexes: readonly TIndexDeclaration[] = Object.values(INDEXES);
    for (const index of indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        ...(index.sortKey ? { sortKey: { name: index.sortKey, type: AttributeType.STRING } } : {}),
        projectionType: ProjectionType[index.projection],
        ...(index.nonKeyAttributes ? { nonKeyAttributes: [...index.nonKeyAttributes] } : {}),
      });
    }

    // Who read or wrote which object, as S3 records it (server access logs), kept a year.
    const accessLogBucket = new Bucket(this, 'DocumentAccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(DOCUMENT_ACCESS_LOG_DAYS) }],
      removalPolicy: keep,
      autoDeleteObjects: !config.deletionProtection,
    });
    acceptFinding(
      accessLogBucket,
      'S1',
      "This bucket receives the documents bucket's access logs; logging its own accesses into itself would loop.",
    );
    const bucket = new Bucket(this, 'Documents', {
      encryption: BucketEncryption.S3_MANAGED,
      versioned: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // No function deletes or overwrites an object; a version replaced or deleted by hand (an
        // operator's mistake, README "Backups and restore") stays restorable this long.
        { noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS) },
      ],
      removalPolicy: keep,
      // A dev stack is disposable; elsewhere signed documents outlive the stack.
      autoDeleteObjects: !config.deletionProtection,
    });

    const shared = { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName };

    // No USAGE_PLAN_ID here: the API's Authorizer resource refers to this function's ARN, and the
    // usage plan depends on the API's deployment, so that value would close a dependency cycle.
    const authorizerFn = new ApiFunction(this, 'AuthorizerFunction', {
      name: 'authorizer',
      config,
      description: 'API key → account, for every API request',
      environment: shared,
      // One key lookup: anything slower is a fault, and failing fast beats holding the request.
      timeout: Duration.seconds(5),
    });
    authorizerFn.grantTable(table, 'read');

    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFn.fn,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(config.authorizerCacheTtlSeconds),
    });

    const accessLogs = config.accessLogging
      ? new LogGroup(this, 'AccessLogs', {
          retention: retentionDays(config.logRetentionDays),
          removalPolicy: keep,
        })
      : undefined;

    const api = new RestApi(this, 'Api', {
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

    for (const error of GATEWAY_ERRORS) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', ...error.headers };
      api.addGatewayResponse(`Gateway${error.type.responseType}`, {
        type: error.type,
        ...(error.status ? { statusCode: error.status } : {}),
        // Gateway response header values are mapping expressions: literals go in single quotes.
        responseHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, `'${v}'`])),
        templates: { 'application/json': gatewayErrorTemplate(error.code, error.message) },
      });
    }

    const usagePlan = api.addUsagePlan('UsagePlan', {
      name: `${id}-default`,
      description: 'Default limits for every API key of this stage',
      quota: { limit: config.rateLimits.quotaPerDay, period: Period.DAY },
      throttle: {
        rateLimit: config.rateLimits.throttleRatePerSecond,
        burstLimit: config.rateLimits.throttleBurst,
      },
      apiStages: [{ api, stage: api.deploymentStage }],
    });

    // Signing links point at the API's own stage, where the signing pages are served; every
    // endpoint builds its absolute URLs (Link headers, smart links) on it too, never on the
    // client's Host header. Built from the API's id alone: a reference to its stage would close a
    // dependency cycle (see above).
    const executeApiOrigin = `https://${api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`;
    // On the operator's domain the stage is mapped at the root: links say https://<domain>/sign/….
    const domainOrigin = config.customDomain ? customDomainOf(this, api, config.customDomain) : undefined;
    const publicBaseUrl = domainOrigin ?? `${executeApiOrigin}/${config.stage}`;

    if (config.waf) {
      const publicPathLimits = publicPathLimitsAcl(this, config);
      new CfnWebACLAssociation(this, 'PublicPathLimitsAssociation', {
        resourceArn: api.deploymentStage.stageArn,
        webAclArn: publicPathLimits.attrArn,
      });
    } else {
      acceptFinding(
        api.deploymentStage,
        'APIG3',
        "The operator turned this stack's WAF off (-c waf=false) for a stage fronted by a WAF of its own; the public paths then have no per-address limits here.",
      );
    }

    // Keyed endpoint functions read their usage plan for the X-RateLimit-* headers of every
    // answer (shared/http/api-handler.ts); the public signing function has no key to report on.
    const keyed = new Set<TFunctionName>(API_ROUTES.map((r) => r.fn));
    const endpoint = (
      constructId: string,
      name: TFunctionName,
      description: string,
      env: Record<string, string> = {},
    ) => {
      const fn = new ApiFunction(this, constructId, {
        name,
        config,
        description,
        environment: {
          ...shared,
          USAGE_PLAN_ID: usagePlan.usagePlanId,
          PUBLIC_BASE_URL: publicBaseUrl,
          ...env,
        },
      });
      if (keyed.has(name)) fn.grantUsagePlanRead(usagePlan);
      return fn;
    };

    // Webhook shared secrets are stored sealed with this key (ARCHITECTURE.md, "Webhook secret").
    const secretsKey = new Key(this, 'WebhookSecretsKey', {
      alias: `alias/esign-${config.stage}-webhook-secrets`,
      description: 'Seals webhook shared secrets at rest (encryption context: accountId)',
      enableKeyRotation: true,
      removalPolicy: keep,
    });
    // Webhook delivery jobs, messages to people and evidence jobs: every function that changes
    // bundles publishes a change's outbox onto all three (shared/adapters/bundle-publishing.ts).
    const webhookQueue = queueWithDeadLetters(this, config.stage, QUEUES.webhookDeliveries);
    const notifications = queueWithDeadLetters(this, config.stage, QUEUES.notifications);
    const documentJobs = queueWithDeadLetters(this, config.stage, QUEUES.documentJobs);
    const webhookEnv = { WEBHOOK_QUEUE_URL: webhookQueue.queueUrl };
    const publishEnv = {
      ...webhookEnv,
      NOTIFICATIONS_QUEUE_URL: notifications.queueUrl,
      DOCUMENTS_QUEUE_URL: documentJobs.queueUrl,
    };
    const grantPublish = (fn: ApiFunction) => {
      fn.grantSend(webhookQueue);
      fn.grantSend(notifications);
      fn.grantSend(documentJobs);
    };
    const webhooks = endpoint('WebhooksFunction', 'webhooks', 'Webhooks: /api/v2/webhooks/', {
      SECRETS_KEY_ID: secretsKey.keyArn,
      ...webhookEnv,
    });
    webhooks.grantTable(table, 'readWrite');
    webhooks.grantSecretsKey(secretsKey);
    webhooks.grantSend(webhookQueue);

    const dispatcher = new ApiFunction(this, 'WebhookDispatcherFunction', {
      name: 'webhook-dispatcher',
      config,
      description: 'Delivers webhook events from the webhook-deliveries queue',
      environment: { ...shared, SECRETS_KEY_ID: secretsKey.keyArn, ...webhookEnv },
      // Every call ends within 10 s and a batch's calls run side by side.
      timeout: Duration.seconds(30),
      reservedConcurrency: config.webhookDispatcherConcurrency,
    });
    dispatcher.grantTable(table, 'readWrite');
    dispatcher.grantSecretsKey(secretsKey);
    // Receive, delete and ChangeMessageVisibility (which schedules retries).
    webhookQueue.grantConsumeMessages(dispatcher.fn);
    dispatcher.fn.addEventSource(
      new SqsEventSource(webhookQueue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: Math.max(2, config.webhookDispatcherConcurrency),
      }),
    );
    const webhookDeadLetters = webhookQueue.deadLetterQueue!.queue;
    new Alarm(this, 'WebhookDeadLettersAlarm', {
      alarmDescription: 'Webhook events that failed every delivery attempt (see the webhook log)',
      metric: webhookDeadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    const sweeper = new ApiFunction(this, 'OutboxSweeperFunction', {
      name: 'outbox-sweeper',
      config,
      description: 'Publishes webhook events a crashed request left in a bundle outbox',
      environment: { ...shared, ...publishEnv },
      timeout: Duration.seconds(60),
    });
    sweeper.grantTable(table, 'readWrite');
    grantPublish(sweeper);
    new Rule(this, 'OutboxSweepSchedule', {
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunctionTarget(sweeper.fn)],
    });

    // Reminders and expiry (ARCHITECTURE.md): every five minutes, so a bundle expires and a
    // reminder goes out at most five minutes after its time. Its changes publish like any other.
    const scheduler = new ApiFunction(this, 'SchedulerFunction', {
      name: 'scheduler',
      config,
      description: 'Expires bundles and sends the automatic reminders that are due',
      environment: { ...shared, ...publishEnv },
      timeout: Duration.minutes(2),
    });
    scheduler.grantTable(table, 'readWrite');
    grantPublish(scheduler);
    new Rule(this, 'SchedulerSchedule', {
      schedule: Schedule.rate(Duration.minutes(5)),
      targets: [new LambdaFunctionTarget(scheduler.fn)],
    });

    // Persons changes reach the bundles they are linked to, so it publishes like bundles.
    const persons = endpoint('PersonsFunction', 'persons', 'Persons: /api/v2/persons/', publishEnv);
    persons.grantTable(table, 'readWrite');
    grantPublish(persons);

    const account = endpoint('AccountFunction', 'account', 'Rate-limit status: /api/v2/rate_limit/');
    account.grantTable(table, 'read');

    // Bulk sends: the bundles function queues a batch's first chunk, the bulk worker the rest.
    const bulkJobs = queueWithDeadLetters(this, config.stage, QUEUES.bulkJobs);
    const bulkEnv = { BULK_QUEUE_URL: bulkJobs.queueUrl };
    const bundles = endpoint('BundlesFunction', 'bundles', 'Bundles: /api/v2/bundles/', {
      ...publishEnv,
      ...bulkEnv,
    });
    bundles.grantTable(table, 'readWrite');
    bundles.grantBucket(bucket, 'readWrite');
    grantPublish(bundles);
    bundles.grantSend(bulkJobs);

    const bulkWorker = new ApiFunction(this, 'BulkWorkerFunction', {
      name: 'bulk-worker',
      config,
      description: 'Creates the bundles of bulk sends, a chunk of rows at a time, at the API throttle pace',
      environment: {
        ...shared,
        ...publishEnv,
        ...bulkEnv,
        BULK_ROWS_PER_SECOND: String(bulkRowsPerSecond(config.rateLimits.throttleRatePerSecond)),
      },
      // Below the queue's visibility timeout, as an SQS event source requires.
      timeout: Duration.seconds(QUEUES.bulkJobs.visibilityTimeoutSeconds - 60),
    });
    bulkWorker.grantTable(table, 'readWrite');
    bulkWorker.grantBucket(bucket, 'readWrite');
    grantPublish(bulkWorker);
    bulkWorker.grantSend(bulkJobs);
    bulkJobs.grantConsumeMessages(bulkWorker.fn);
    // One chunk at a time, one batch's chunks after another: the pace is the worker's to keep.
    bulkWorker.fn.addEventSource(
      new SqsEventSource(bulkJobs, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }),
    );
    new Alarm(this, 'BulkJobDeadLettersAlarm', {
      alarmDescription:
        'Bulk send chunks that failed every attempt: their batch stays unfinished (see the worker logs)',
      metric: bulkJobs.deadLetterQueue!.queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // Document templates: their items and their PDFs (bundles made from one reuse its PDF).
    // Its doc_template_* webhook events go straight to the deliveries queue (no bundle outbox).
    const templates = endpoint(
      'TemplatesFunction',
      'templates',
      'Document templates: /api/v2/templates/',
      webhookEnv,
    );
    templates.grantTable(table, 'readWrite');
    templates.grantBucket(bucket, 'readWrite');
    templates.grantSend(webhookQueue);

    // The signing page's pdf.js fetches documents over 4 MB straight from their presigned links.
    bucket.addCorsRule({
      allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
      allowedOrigins: domainOrigin ? [domainOrigin, executeApiOrigin] : [executeApiOrigin],
      allowedHeaders: ['*'],
      maxAge: 3600,
    });
    const packets = endpoint('PacketsFunction', 'packets', 'Packets: /api/v2/packets/', publishEnv);
    packets.grantTable(table, 'readWrite');
    // Read only: a Certificate of Evidence is handed out as a presigned link.
    packets.grantBucket(bucket, 'read');
    grantPublish(packets);

    // Messages to people (ARCHITECTURE.md, "Notifications"): email through SES from one sender
    // address (`-c mailFrom=…`, its domain or address verified in SES), SMS through SNS. SES
    // reports bounces and complaints of mail sent with the configuration set to a topic the
    // worker subscribes to.
    const mailFrom = String(this.node.tryGetContext('mailFrom') ?? 'no-reply@example.com');
    const mailDomain = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(mailFrom)?.[1];
    if (!mailDomain) throw new Error(`mailFrom must be an email address, got "${mailFrom}"`);
    const mailEvents = new Topic(this, 'MailEventsTopic', {
      displayName: `esign-${config.stage}: SES bounces and complaints`,
      enforceSSL: true,
    });
    const mailConfigurationSet = new ConfigurationSet(this, 'MailConfigurationSet', {
      configurationSetName: `esign-${config.stage}`,
    });
    mailConfigurationSet.addEventDestination('BouncesAndComplaints', {
      destination: EventDestination.snsTopic(mailEvents),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.REJECT],
    });
    const notifier = new ApiFunction(this, 'NotificationsWorkerFunction', {
      name: 'notifications-worker',
      config,
      description: 'Emails and texts signers and senders from the notifications queue; records bounces',
      environment: {
        ...shared,
        PUBLIC_BASE_URL: publicBaseUrl,
        MAIL_FROM: mailFrom,
        SES_CONFIGURATION_SET: mailConfigurationSet.configurationSetName,
        // For ChangeMessageVisibility, which schedules a failed job's retry.
        NOTIFICATIONS_QUEUE_URL: notifications.queueUrl,
        // How long the signed-copy links in documents-ready messages work.
        COPY_LINK_DAYS: String(config.copyLinkDays),
      },
      // Below the queue's visibility timeout, as an SQS event source requires.
      timeout: Duration.seconds(Math.min(30, QUEUES.notifications.visibilityTimeoutSeconds - 10)),
    });
    notifier.grantTable(table, 'readWrite');
    // A documents-ready email may carry the signed copies themselves (shared/domain/evidence/copy-link.ts).
    notifier.grantBucket(bucket, 'read');
    notifications.grantConsumeMessages(notifier.fn);
    // Small batches, two at a time: a documents-ready job sends a message per recipient, and the
    // pace stays within SES's default sending rate.
    notifier.fn.addEventSource(
      new SqsEventSource(notifications, { batchSize: 5, reportBatchItemFailures: true, maxConcurrency: 2 }),
    );
    // SendEmail from the one sender address only, through its identity (the domain, or the
    // address itself if that is what was verified) and with the configuration set.
    const sesArn = (resource: string) =>
      `arn:${this.partition}:ses:${this.region}:${this.account}:${resource}`;
    notifier.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          sesArn(`identity/${mailDomain}`),
          sesArn(`identity/${mailFrom}`),
          sesArn(`configuration-set/${mailConfigurationSet.configurationSetName}`),
        ],
        conditions: { StringEquals: { 'ses:FromAddress': mailFrom } },
      }),
    );
    // SMS to a phone number has no resource ARN to scope by; excluding every topic ARN leaves
    // Publish to phone numbers only (as for the signing function's SMS codes).
    notifier.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        notResources: [`arn:${this.partition}:sns:*:*:*`],
      }),
    );
    mailEvents.addSubscription(new LambdaSubscription(notifier.fn));
    // SNS invokes asynchronously: Lambda retries a failed report twice, then keeps it here.
    const mailEventFailures = new Queue(this, 'mail-events-dlq', {
      queueName: `esign-${config.stage}-mail-events-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    notifier.fn.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(mailEventFailures) });
    acceptFinding(
      mailEventFailures,
      'SQS3',
      "This queue is itself the failure destination of the mail events' asynchronous invocations, with its own alarm below; nothing consumes it, so it has no dead-letter queue of its own.",
    );
    for (const [id, queue, what] of [
      [
        'NotificationDeadLettersAlarm',
        notifications.deadLetterQueue!.queue,
        'Notification jobs that failed every attempt',
      ],
      [
        'MailEventDeadLettersAlarm',
        mailEventFailures,
        'SES bounce or complaint reports that could not be recorded',
      ],
    ] as const) {
      new Alarm(this, id, {
        alarmDescription: `${what} (see the bundles' nf audit events and the worker's logs)`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }

    // The public pages and their APIs, none with an API key: signing (/sign, link and session
    // tokens), template preparation (/prepare), smart links (/portal), /verify and Stripe's webhook.
    const publicPages = endpoint(
      'PublicPagesFunction',
      'public-pages',
      'Public pages: signing (/sign), /prepare, /portal, /verify, /payments',
      publishEnv,
    );
    publicPages.grantTable(table, 'readWrite');
    publicPages.grantBucket(bucket, 'readWrite');
    grantPublish(publicPages);

    // Bundle payments (ARCHITECTURE.md, "Payments"): Stripe's keys, which the operator puts in
    // this secret as {"apiKey": "sk_…", "webhookSecret": "whsec_…"}; created empty. Only the
    // signing function (the signer's payment step, Stripe's webhook at /payments) reads it.
    const stripeSecret = operatorSecret(this, 'StripeKeysSecret', {
      secretName: `esign-${config.stage}-stripe-keys`,
      description: "Stripe's API key and webhook signing secret for bundle payments",
      removalPolicy: keep,
      notRotated:
        'Stripe issues and rolls these keys in its own dashboard; the operator puts the new ones here, which no rotation function could do for Stripe.',
    });
    publicPages.fn.addEnvironment('STRIPE_SECRET_ID', stripeSecret.secretArn);
    stripeSecret.grantRead(publicPages.fn);

    // Envelope templates: its own items only (and their smart links, which name the public stage).
    const envelopeTemplates = endpoint(
      'EnvelopeTemplatesFunction',
      'envelope-templates',
      'Envelope templates: /api/v2/envelope-templates/',
    );
    envelopeTemplates.grantTable(table, 'readWrite');
    // SMS codes go to the signer's phone: SNS publishes to a phone number with no topic, which
    // IAM can only scope by denying topic ARNs, so this allows Publish to phone numbers only.
    publicPages.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        notResources: [`arn:${this.partition}:sns:*:*:*`],
      }),
    );

    // The MCP server for AI agents (ARCHITECTURE.md, "AI agents (MCP)"): its tools call the public
    // API at the stage URL with the caller's key, as any client does, so it is given no table,
    // bucket, queue or usage plan of its own: only PUBLIC_BASE_URL.
    const mcp = endpoint('McpFunction', 'mcp', 'MCP server for AI agents: /mcp (calls the public API)');

    // Evidence (ARCHITECTURE.md, "Evidence"): the document worker draws and seals the final
    // documents and certificates from the documentJobs queue. The seal's certificate and key live
    // in this secret, created empty (no generated value): the worker makes a self-signed identity
    // and stores it there on first use, or the operator puts the organisation's own (PKCS #12).
    const sealSecret = operatorSecret(this, 'SealIdentitySecret', {
      secretName: `esign-${config.stage}-seal-identity`,
      description: 'The certificate and private key that seal final documents and certificates of evidence',
      removalPolicy: keep,
      notRotated:
        'A seal certificate with its key, renewed by the operator when the certificate nears its end (npm run admin -- seal-install-cert); a rotation schedule cannot renew a certificate.',
    });
    // The seal key itself stays in KMS (shared/adapters/sealing/kms-seal-identity.ts): the worker
    // may Sign with it and read its public key, nothing more. Kept whatever the stage: a seal key
    // deleted with a stack would orphan the certificate an operator had a CA issue for it. Its
    // certificate chain (public) lives in the chain secret, installed by seal-install-cert; until
    // then the PKCS #12 secret above seals, so a stack deployed before keeps sealing.
    const sealName = `esign-${config.stage}-seal`;
    const sealKey = new Key(this, 'SealKey', {
      alias: sealKeyAlias(sealName),
      description: 'Seals final documents and certificates of evidence (the private key never leaves KMS)',
      keySpec: KeySpec.RSA_3072,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const sealChainSecret = operatorSecret(this, 'SealChainSecret', {
      secretName: sealChainName(sealName),
      description:
        "The seal certificate chain (PEM, public): the KMS seal key's certificate, then its issuers",
      removalPolicy: keep,
      notRotated:
        "Public certificates only (the KMS seal key's chain), replaced by the operator with the next certificate; nothing secret in it to rotate.",
    });
    const documentWorker = new ApiFunction(this, 'DocumentWorkerFunction', {
      name: 'document-worker',
      config,
      description: 'Draws and seals final documents, certificates of evidence and interim files',
      environment: {
        ...shared,
        ...publishEnv,
        SEAL_SECRET_ID: sealSecret.secretArn,
        SEAL_KEY_ID: sealKey.keyArn,
        SEAL_NAME: sealName,
        SEAL_CHAIN_SECRET_ID: sealChainSecret.secretArn,
        // Seals are stamped by these (B-T) and fail rather than go without; none: B-B.
        ...(config.tsaUrls.length > 0
          ? { TSA_URLS: config.tsaUrls.join(' '), PADES_LEVEL: config.padesLevel }
          : {}),
      },
      // PDFs of up to 25 MB (originals, their stamped and sealed copies) sit in memory at once;
      // memory also buys the CPU that drawing and hashing take.
      memorySize: DOCUMENT_WORKER_MEMORY_MB,
      // Below the queue's visibility timeout, as an SQS event source requires, and below the
      // job's lease (FINAL_LEASE_SECONDS), so a run that times out never outlives its lease.
      timeout: Duration.seconds(QUEUES.documentJobs.visibilityTimeoutSeconds - 30),
    });
    // Credentials of timestamp authorities that want them, as headers per TSA URL
    // (shared/adapters/timestamps/tsa-credentials.ts); created without a value, which means none.
    if (config.tsaUrls.length > 0) {
      const tsaSecret = operatorSecret(this, 'TsaCredentialsSecret', {
        secretName: `esign-${config.stage}-tsa-credentials`,
        description: 'Headers (e.g. basic auth) per timestamp authority URL for sealing',
        removalPolicy: keep,
        notRotated:
          "Credentials issued by the timestamp authorities' own accounts; the operator replaces them when the authority does, which no rotation function could.",
      });
      documentWorker.fn.addEnvironment('TSA_SECRET_ID', tsaSecret.secretArn);
      tsaSecret.grantRead(documentWorker.fn);
    }
    documentWorker.grantTable(table, 'readWrite');
    documentWorker.grantBucket(bucket, 'readWrite');
    grantPublish(documentWorker);
    sealSecret.grantRead(documentWorker.fn);
    sealSecret.grantWrite(documentWorker.fn);
    sealChainSecret.grantRead(documentWorker.fn);
    documentWorker.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [sealKey.keyArn] }),
    );
    // Accounts' own seal keys, made by the operator's seal-csr: only keys under their aliases.
    documentWorker.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Sign', 'kms:GetPublicKey'],
        resources: [`arn:${this.partition}:kms:${this.region}:${this.account}:key/*`],
        conditions: {
          'ForAnyValue:StringLike': { 'kms:ResourceAliases': sealAccountPatterns(sealName).keyAlias },
        },
      }),
    );
    documentWorker.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [
          `arn:${this.partition}:secretsmanager:${this.region}:${this.account}:secret:${sealAccountPatterns(sealName).chain}`,
        ],
      }),
    );
    acceptFinding(
      documentWorker,
      'IAM5[Resource::arn:<AWS::Partition>:kms:<AWS::Region>:<AWS::AccountId>:key/*]',
      "Accounts' own seal keys are made by the operator after deploy, so their ids are unknown here; the statement's condition limits it to keys under this stage's account-seal aliases, and to Sign and GetPublicKey.",
    );
    acceptFinding(
      documentWorker,
      `IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${sealAccountPatterns(sealName).chain}]`,
      "Accounts' seal certificate chains (public certificates), one secret per account made by the operator, named under this stage's prefix; read only.",
    );
    // Receive, delete and ChangeMessageVisibility (which schedules retries).
    documentJobs.grantConsumeMessages(documentWorker.fn);
    documentWorker.fn.addEventSource(
      new SqsEventSource(documentJobs, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 5 }),
    );
    new Alarm(this, 'DocumentJobDeadLettersAlarm', {
      alarmDescription: 'Document jobs whose failure could not be recorded (see the worker logs)',
      metric: documentJobs.deadLetterQueue!.queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // Each endpoint group serves its path and everything below it; handlers route within.
    // The route table is shared with the local runtime, which routes by the same entries.
    const functions: Record<TFunctionName, ApiFunction> = {
      persons,
      account,
      bundles,
      packets,
      templates,
      webhooks,
      'public-pages': publicPages,
      'envelope-templates': envelopeTemplates,
      mcp,
    };
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
      const resource = api.root.addResource(route.resource);
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

    // Last: the alarms watch every function made above, and every alarm acts on one topic.
    const operations = new Operations(this, 'Operations', {
      stage: config.stage,
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
      api,
      table,
      queues: [
        { what: 'Webhook deliveries', queue: webhookQueue },
        { what: 'Notifications', queue: notifications },
        { what: 'Document jobs', queue: documentJobs },
        { what: 'Bulk send chunks', queue: bulkJobs },
      ],
    });
    operations.finish();
    new CfnOutput(this, 'AlarmTopicArn', { value: operations.topic.topicArn });

    new CfnOutput(this, 'ApiUrl', {
      value: domainOrigin
        ? `${domainOrigin}/${API_PREFIX.join('/')}/`
        : api.urlForPath(`/${API_PREFIX.join('/')}/`),
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName });
    new CfnOutput(this, 'UsagePlanId', { value: usagePlan.usagePlanId });
    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'SealName', { value: sealName });
  }
}
