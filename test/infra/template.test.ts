import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, PUBLIC_API_ROUTES, PUBLIC_ROUTES } from '../../infra/api-routes';
import { lambdaEntries, REPO_ROOT } from '../../infra/bundling';
import { DOCUMENT_WORKER_MEMORY_MB } from '../../infra/constructs/functions';
import { gatewayErrorTemplate, RETRY_AFTER_SECONDS } from '../../infra/constructs/gateway-responses';
import { ALARM_THRESHOLDS } from '../../infra/constructs/operations';
import { DOCUMENT_ACCESS_LOG_DAYS, NONCURRENT_VERSION_DAYS } from '../../infra/constructs/storage';
import { MANAGED_RULE_GROUPS } from '../../infra/constructs/waf';
import { PUBLIC_PATH_LIMITED_ANSWERS, PUBLIC_PATH_LIMITED_LABEL } from '../../infra/public-path-limits';
import { QUEUES } from '../../infra/queues';
import { EsignStack } from '../../infra/stack';
import {
  DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
  DEFAULT_RATE_LIMITS,
  stageConfig,
} from '../../infra/stage-config';
import { INDEXES, TABLE_KEYS } from '../../shared/adapters/dynamodb/table';
import { METRICS_NAMESPACE } from '../../shared/adapters/telemetry/metrics';
import { DOCUMENT_MAX_ATTEMPTS, FINAL_LEASE_SECONDS } from '../../shared/domain/evidence/evidence-files';
import { MAX_ATTEMPTS } from '../../shared/domain/webhooks/deliver-event';

interface TResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
}

interface TStatement {
  Effect: string;
  Action: string | string[];
  Resource?: unknown;
}

// The feature flags of cdk.json change what constructs emit: test what `cdk synth` deploys.
const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

let dev: Template;
let prod: Template;
let devStack: EsignStack;
let prodStack: EsignStack;
const TSA_URLS = ['https://timestamp.example.com/tsa', 'https://tsa.example.org/'];

// Template.fromStack also refuses a template with a dependency cycle, which synth alone lets
// through and CloudFormation rejects at deploy time (see ApiFunction.arnByName).
beforeAll(() => {
  // The functions' code is not bundled here (an empty bundling-stacks list): these tests read the
  // template, and test/e2e/signing-lambda-assets.test.ts builds the bundles themselves.
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  devStack = new EsignStack(app, 'Esign-dev', { config: stageConfig('dev') });
  // prod as an operator would run it: seals stamped by two public timestamp authorities.
  prodStack = new EsignStack(app, 'Esign-prod', {
    config: stageConfig('prod', (key) => (key === 'tsaUrls' ? TSA_URLS.join(',') : undefined)),
  });
  dev = Template.fromStack(devStack);
  prod = Template.fromStack(prodStack);
}, 120_000);

function resources(template: Template): Record<string, TResource> {
  return (template.toJSON() as { Resources: Record<string, TResource> }).Resources;
}

function logicalIdOf(template: Template, type: string, props: Record<string, unknown>): string {
  const found = Object.keys(template.findResources(type, { Properties: props }));
  expect(found).toHaveLength(1);
  return found[0]!;
}

function functionId(template: Template, stack: string, name: string): string {
  return logicalIdOf(template, 'AWS::Lambda::Function', { FunctionName: `${stack}-${name}` });
}

/** Every statement of the function's role: inline policies and attached AWS::IAM::Policy resources. */
function roleStatements(template: Template, fnId: string): TStatement[] {
  const all = resources(template);
  const role = (all[fnId]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements: TStatement[] = [];
  const inline = (all[role]!.Properties!.Policies ?? []) as { PolicyDocument: { Statement: TStatement[] } }[];
  for (const p of inline) statements.push(...p.PolicyDocument.Statement);
  for (const r of Object.values(all)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    const roles = r.Properties!.Roles as { Ref: string }[];
    if (!roles.some((ref) => ref.Ref === role)) continue;
    statements.push(...(r.Properties!.PolicyDocument as { Statement: TStatement[] }).Statement);
  }
  return statements;
}

/** Renders a CloudFormation string expression with `<LogicalId>` for each Ref, to compare whole. */
function render(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const v = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
    if (v.Ref) return `<${v.Ref}>`;
    if (v['Fn::Join']) return v['Fn::Join'][1].map(render).join(v['Fn::Join'][0]);
  }
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

const actionsOf = (s: TStatement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** The functions that change bundles, and so publish their outbox onto every queue. */
const PUBLISHERS: readonly string[] = [
  'packets',
  'bundles',
  'persons',
  'outbox-sweeper',
  'scheduler',
  'public-pages',
  'document-worker',
  'bulk-worker',
];

/**
 * The secrets a function that reads `secretId` may also reach: the seal chains (the service's
 * and accounts' by their name prefix) and, where configured, the timestamp authorities'
 * credentials. Any other secret in its policy is a leak.
 */
function secretsReachable(secrets: Record<string, unknown>, stage: string, secretId: string) {
  const named = (name: string) =>
    Object.keys(secrets).find((id) => (secrets[id] as TResource).Properties?.Name === name);
  const tsaSecretId = named(`esign-${stage}-tsa-credentials`);
  const accountChains = {
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':secretsmanager:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        `:secret:esign-${stage}-seal-chain-account-*`,
      ],
    ],
  };
  return [
    { Ref: secretId },
    { Ref: named(`esign-${stage}-seal-chain`)! },
    accountChains,
    ...(tsaSecretId ? [{ Ref: tsaSecretId }] : []),
  ];
}

describe('the template as a whole', () => {
  it('has exactly one function per lambdaEntries() item, the list the benchmark bundles', () => {
    for (const { name } of lambdaEntries()) functionId(dev, 'Esign-dev', name);
    const ours = Object.keys(
      dev.findResources('AWS::Lambda::Function', {
        Properties: { FunctionName: Match.stringLikeRegexp('^Esign-dev-') },
      }),
    );
    expect(ours).toHaveLength(lambdaEntries().length);
  });

  it('outputs what the operator needs', () => {
    for (const name of ['ApiUrl', 'TableName', 'BucketName', 'UsagePlanId', 'Region']) {
      dev.hasOutput(name, {});
    }
    const url = render((dev.findOutputs('ApiUrl').ApiUrl as { Value: unknown }).Value);
    expect(url).toMatch(/^https:\/\/<\w+>\.execute-api\..+\/<\w+>\/api\/v2\/$/);
  });
});

describe('REST API', () => {
  it('takes API keys from the authorizer and passes every body through as binary', () => {
    dev.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      BinaryMediaTypes: ['*/*'],
    });
  });

  it('has a REQUEST authorizer on the Authorization header, cached 60 s', () => {
    expect(DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS).toBe(60);
    dev.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 60,
    });
  });

  it('serves every route of the shared table, each with a catch-all below, through its function', () => {
    const paths = Object.values(dev.findResources('AWS::ApiGateway::Resource')).map(
      (r) => (r as TResource).Properties!.PathPart,
    );
    const routes = [...API_ROUTES, ...PUBLIC_API_ROUTES, ...PUBLIC_ROUTES];
    const expected = ['api', 'v2', ...routes.flatMap((r) => [r.resource, '{proxy+}'])];
    expect(paths.sort()).toEqual(expected.sort());
    expect(paths).toEqual(expect.arrayContaining(['persons', 'rate_limit', 'bundles', 'sign']));
    const methods = Object.values(resources(dev)).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    expect(methods).toHaveLength(routes.length * 2);
    const targets = methods.map(
      (m) =>
        render((m.Properties!.Integration as { Uri: unknown }).Uri).match(
          /:function:([\w-]+)\/invocations$/,
        )?.[1],
    );
    expect(targets.sort()).toEqual(routes.flatMap((r) => [`Esign-dev-${r.fn}`, `Esign-dev-${r.fn}`]).sort());
  });

  it('requires the authorizer and an API key on every method but the public signing and verify ones', () => {
    const all = resources(dev);
    // The public resources hang off the API's root (/sign, /verify), not /api/v2 (/api/v2/verify).
    // The API's description is public below /api/v2 (/api/v2/openapi.json).
    const publicParts = new Set(PUBLIC_ROUTES.map((r) => r.resource));
    const publicApiParts = new Set(PUBLIC_API_ROUTES.map((r) => r.resource));
    const publicIds = new Set(
      Object.entries(all)
        .filter(
          ([, r]) =>
            r.Type === 'AWS::ApiGateway::Resource' &&
            (publicParts.has(r.Properties!.PathPart as string)
              ? 'Fn::GetAtt' in (r.Properties!.ParentId as object)
              : publicApiParts.has(r.Properties!.PathPart as string)),
        )
        .map(([id]) => id),
    );
    const publicCount = PUBLIC_ROUTES.length + PUBLIC_API_ROUTES.length;
    expect(publicIds.size).toBe(publicCount);
    const methods = Object.values(dev.findResources('AWS::ApiGateway::Method')) as TResource[];
    // A method sits on /sign or on /sign/{proxy+} (whose parent is /sign); the same for /verify.
    const isPublic = (m: TResource) => {
      const ref = (m.Properties!.ResourceId as { Ref: string }).Ref;
      const parent = (all[ref]!.Properties!.ParentId as { Ref?: string } | undefined)?.Ref;
      return publicIds.has(ref) || (parent !== undefined && publicIds.has(parent));
    };
    expect(methods.filter(isPublic)).toHaveLength(2 * publicCount);
    for (const m of methods) {
      expect(m.Properties).toMatchObject(
        isPublic(m)
          ? { HttpMethod: 'ANY', ApiKeyRequired: false, AuthorizationType: 'NONE' }
          : {
              HttpMethod: 'ANY',
              ApiKeyRequired: true,
              AuthorizationType: 'CUSTOM',
              AuthorizerId: { Ref: expect.any(String) },
              Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
            },
      );
    }
  });

  it('lets API Gateway invoke each endpoint function for its own paths only', () => {
    const persons = functionId(dev, 'Esign-dev', 'persons');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: { 'Fn::GetAtt': [persons, 'Arn'] } },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    expect(sources.sort()).toEqual(['dev/*/api/v2/persons', 'dev/*/api/v2/persons/*']);
  });

  it('attaches a usage plan with the stage quota per day and throttle', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      quotaPerDay: 48_000,
      throttleRatePerSecond: 50,
      throttleBurst: 500,
    });
    dev.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Quota: { Limit: 48_000, Period: 'DAY' },
      Throttle: { RateLimit: 50, BurstLimit: 500 },
      ApiStages: [Match.objectLike({ ApiId: Match.anyValue(), Stage: Match.anyValue() })],
    });
    dev.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'dev' });
    prod.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod' });
  });
});

describe('gateway responses', () => {
  const expected: Array<[type: string, status: string | undefined, code: string]> = [
    ['UNAUTHORIZED', '401', 'not_authenticated'],
    ['ACCESS_DENIED', '401', 'authentication_failed'],
    ['INVALID_API_KEY', '401', 'authentication_failed'],
    ['THROTTLED', '429', 'throttled'],
    ['QUOTA_EXCEEDED', '429', 'throttled'],
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'not_found'],
    ['REQUEST_TOO_LARGE', '413', 'invalid'],
    ['DEFAULT_5XX', undefined, 'error'],
    ['DEFAULT_4XX', undefined, 'error'],
  ];

  it.each(expected)('%s answers %s with code %s in the API error body', (type, status, code) => {
    const found = Object.values(
      dev.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }),
    ) as TResource[];
    expect(found).toHaveLength(1);
    const props = found[0]!.Properties!;
    expect(props.StatusCode).toBe(status);
    expect(props.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Content-Type': "'application/json'",
    });
    const template = (props.ResponseTemplates as Record<string, string>)['application/json']!;
    // Substitute what API Gateway would, then the body must be the error shape.
    const body = JSON.parse(template.replaceAll('$context.error.messageString', '"Some message"')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body)).toEqual(['code', 'message', 'detail', 'errors']);
    expect(body).toMatchObject({ code, errors: [] });
    expect(typeof body.message).toBe('string');
    expect(body.detail).toBe(body.message);
    if (status === '429') {
      expect(props.ResponseParameters).toHaveProperty(['gatewayresponse.header.Retry-After']);
    }
  });

  it('tells throttled clients when to come back', () => {
    dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: Match.objectLike({
        'gatewayresponse.header.Retry-After': `'${RETRY_AFTER_SECONDS.throttled}'`,
      }),
    });
    dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'QUOTA_EXCEEDED',
      ResponseParameters: Match.objectLike({
        'gatewayresponse.header.Retry-After': `'${RETRY_AFTER_SECONDS.quotaExceeded}'`,
      }),
    });
  });

  it('keeps API Gateway message text out of static bodies and JSON-safe in dynamic ones', () => {
    expect(gatewayErrorTemplate('error')).toContain(':$context.error.messageString,');
    expect(JSON.parse(gatewayErrorTemplate('invalid', 'A "quoted" message'))).toMatchObject({
      message: 'A "quoted" message',
    });
  });
});

describe('per-address limits on the public token paths (WAF)', () => {
  const webAcls = () => Object.entries(dev.findResources('AWS::WAFv2::WebACL')) as [string, TResource][];
  // biome-ignore lint/suspicious/noExplicitAny: the WebACL's rules are deep CloudFormation JSON
  const rulesOf = (acl: TResource) => acl.Properties!.Rules as any[];

  it('declares a regional WebACL that allows by default, associated with the API stage', () => {
    const acls = webAcls();
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const stageId = logicalIdOf(dev, 'AWS::ApiGateway::Stage', { StageName: 'dev' });
    const associations = Object.values(dev.findResources('AWS::WAFv2::WebACLAssociation')) as TResource[];
    expect(associations).toHaveLength(1);
    const association = associations[0]!.Properties!;
    expect(association.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(render(association.ResourceArn)).toMatch(
      new RegExp(`^arn:<AWS::Partition>:apigateway:<AWS::Region>::/restapis/<\\w+>/stages/<${stageId}>$`),
    );
  });

  it('counts each path group per client address over the stage window, and labels what is over', () => {
    const { requestsPerWindow, windowSeconds } = stageConfig('dev').publicPathLimits;
    expect(stageConfig('prod').publicPathLimits).toEqual({ requestsPerWindow: 100, windowSeconds: 60 });
    const rules = rulesOf(webAcls()[0]![1]);
    const rateRules = rules.filter((r) => r.Statement.RateBasedStatement);
    const prefixesOf = (scope: { ByteMatchStatement?: unknown; OrStatement?: { Statements: unknown[] } }) =>
      (scope.OrStatement ? scope.OrStatement.Statements : [scope]).map((s) => {
        const m = (s as { ByteMatchStatement: Record<string, unknown> }).ByteMatchStatement;
        expect(m).toMatchObject({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH' });
        return m.SearchString;
      });
    expect(
      rateRules.map((r) => ({
        prefixes: prefixesOf(r.Statement.RateBasedStatement.ScopeDownStatement),
        limit: r.Statement.RateBasedStatement.Limit,
        window: r.Statement.RateBasedStatement.EvaluationWindowSec,
        key: r.Statement.RateBasedStatement.AggregateKeyType,
        action: r.Action,
        labels: r.RuleLabels,
      })),
    ).toEqual(
      [
        ['/dev/sign/api/session', '/dev/sign/copies/'],
        ['/dev/prepare/'],
        ['/dev/verify'],
        ['/dev/portal/'],
      ].map((prefixes) => ({
        prefixes,
        limit: requestsPerWindow,
        window: windowSeconds,
        key: 'IP',
        action: { Count: {} },
        labels: [{ Name: PUBLIC_PATH_LIMITED_LABEL }],
      })),
    );
  });

  it("runs AWS's managed common and known-bad-input rules after the limits, counting only the body size rule", () => {
    const rules = rulesOf(webAcls()[0]![1]);
    const managed = rules.filter((r) => r.Statement.ManagedRuleGroupStatement);
    expect(
      managed.map((r) => ({
        name: r.Statement.ManagedRuleGroupStatement.Name,
        vendor: r.Statement.ManagedRuleGroupStatement.VendorName,
        overrides: r.Statement.ManagedRuleGroupStatement.RuleActionOverrides ?? [],
        action: r.OverrideAction,
      })),
    ).toEqual([
      {
        name: 'AWSManagedRulesCommonRuleSet',
        vendor: 'AWS',
        // Documents come as base64 bodies of up to 10 MB: the 8 KB body rule may only count.
        overrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
        action: { None: {} },
      },
      { name: 'AWSManagedRulesKnownBadInputsRuleSet', vendor: 'AWS', overrides: [], action: { None: {} } },
    ]);
    const lastLimit = Math.max(
      ...rules.filter((r) => !r.Statement.ManagedRuleGroupStatement).map((r) => r.Priority),
    );
    for (const r of managed) expect(r.Priority).toBeGreaterThan(lastLimit);
    expect(MANAGED_RULE_GROUPS.map((g) => g.name)).toEqual(managed.map((r) => r.Name));
  });

  it('leaves the WAF out only when the stage says so (-c waf=false)', () => {
    expect(stageConfig('dev').waf).toBe(true);
    const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const stack = new EsignStack(app, 'Esign-nowaf', {
      config: stageConfig('nowaf', (key) => (key === 'waf' ? 'false' : undefined)),
    });
    const bare = Template.fromStack(stack);
    bare.resourceCountIs('AWS::WAFv2::WebACL', 0);
    bare.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    // cdk-nag's WAF rule is then accepted on the stage, with the reason.
    expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
  }, 120_000);

  it('blocks labelled requests with 429 and Retry-After: the JSON error body on API paths, a page elsewhere', () => {
    const acl = webAcls()[0]![1];
    const rules = rulesOf(acl);
    const blocks = rules.filter((r) => r.Action?.Block);
    expect(blocks).toHaveLength(2);
    const rateMax = Math.max(...rules.filter((r) => r.Statement.RateBasedStatement).map((r) => r.Priority));
    for (const block of blocks) {
      // After every counting rule, so their labels are on the request.
      expect(block.Priority).toBeGreaterThan(rateMax);
      expect(block.Action.Block.CustomResponse).toMatchObject({
        ResponseCode: 429,
        ResponseHeaders: [
          { Name: 'Retry-After', Value: String(stageConfig('dev').publicPathLimits.windowSeconds) },
        ],
      });
    }
    const [api, page] = [...blocks].sort((a, b) => a.Priority - b.Priority);
    const labelMatch = { LabelMatchStatement: { Scope: 'LABEL', Key: PUBLIC_PATH_LIMITED_LABEL } };
    expect(api.Statement.AndStatement.Statements[0]).toEqual(labelMatch);
    expect(
      api.Statement.AndStatement.Statements[1].OrStatement.Statements.map(
        (s: { ByteMatchStatement: { SearchString: string } }) => s.ByteMatchStatement.SearchString,
      ),
    ).toEqual(['/dev/sign/api/', '/dev/prepare/api/', '/dev/verify/api/']);
    expect(page.Statement).toEqual(labelMatch);
    const bodies = acl.Properties!.CustomResponseBodies as Record<
      string,
      { ContentType: string; Content: string }
    >;
    const apiBody = bodies[api.Action.Block.CustomResponse.CustomResponseBodyKey]!;
    expect(apiBody.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(apiBody.Content)).toEqual(JSON.parse(PUBLIC_PATH_LIMITED_ANSWERS.json));
    const pageBody = bodies[page.Action.Block.CustomResponse.CustomResponseBodyKey]!;
    expect(pageBody).toEqual({ ContentType: 'TEXT_HTML', Content: PUBLIC_PATH_LIMITED_ANSWERS.page });
  });
});

describe('DynamoDB table', () => {
  it('has the keys and indexes table.ts declares, on demand, with point-in-time recovery', () => {
    const indexes = Object.values(INDEXES);
    const attributes = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
    for (const ix of indexes) {
      attributes.add(ix.partitionKey);
      attributes.add(ix.sortKey);
    }
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals(
        [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      ),
      GlobalSecondaryIndexes: Match.arrayEquals(
        indexes.map((ix) => ({
          IndexName: ix.name,
          KeySchema: [
            { AttributeName: ix.partitionKey, KeyType: 'HASH' },
            { AttributeName: ix.sortKey, KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: ix.projection,
            ...('nonKeyAttributes' in ix ? { NonKeyAttributes: [...ix.nonKeyAttributes] } : {}),
          },
        })),
      ),
    });
  });

  it('is protected from deletion in prod and disposable in dev', () => {
    prod.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    dev.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
      DeletionPolicy: 'Delete',
    });
  });
});

describe('documents bucket', () => {
  it('is encrypted, versioned and closed to the public', () => {
    for (const template of [dev, prod]) {
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      });
    }
  });

  it('refuses requests without TLS', () => {
    dev.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('keeps replaced and deleted versions restorable, and logs every access to a bucket of its own', () => {
    for (const template of [dev, prod]) {
      const buckets = template.findResources('AWS::S3::Bucket', {
        Properties: { VersioningConfiguration: { Status: 'Enabled' } },
      });
      expect(Object.keys(buckets)).toHaveLength(1);
      const documents = Object.values(buckets)[0]!.Properties as {
        LifecycleConfiguration: { Rules: Record<string, unknown>[] };
        LoggingConfiguration: { DestinationBucketName: { Ref: string }; LogFilePrefix: string };
      };
      expect(documents.LifecycleConfiguration.Rules).toContainEqual(
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
          Status: 'Enabled',
        }),
      );
      // No rule expires current versions: a signed document stays until someone deletes it.
      for (const rule of documents.LifecycleConfiguration.Rules)
        expect(rule).not.toHaveProperty('ExpirationInDays');
      const logs = resources(template)[documents.LoggingConfiguration.DestinationBucketName.Ref]!;
      expect(logs.Type).toBe('AWS::S3::Bucket');
      expect(logs.Properties).toMatchObject({
        LifecycleConfiguration: {
          Rules: [{ ExpirationInDays: DOCUMENT_ACCESS_LOG_DAYS, Status: 'Enabled' }],
        },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      });
    }
  });

  it('outlives a prod stack', () => {
    prod.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
    prod.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });
});

describe('functions', () => {
  it.each(['authorizer', 'persons', 'account'])(
    '%s runs on nodejs22.x arm64 with its environment',
    (name) => {
      const id = functionId(dev, 'Esign-dev', name);
      const props = resources(dev)[id]!.Properties!;
      expect(props).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
      const vars = (props.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars).toMatchObject({
        STAGE: 'dev',
        LOG_LEVEL: 'debug',
        TABLE_NAME: { Ref: expect.any(String) },
        BUCKET_NAME: { Ref: expect.any(String) },
      });
      if (name === 'authorizer') expect(vars).not.toHaveProperty('USAGE_PLAN_ID');
      else expect(vars.USAGE_PLAN_ID).toEqual({ Ref: logicalIdOf(dev, 'AWS::ApiGateway::UsagePlan', {}) });
    },
  );

  it('logs to its own log group with the stage retention', () => {
    for (const [template, stack, days] of [
      [dev, 'Esign-dev', 7],
      [prod, 'Esign-prod', 365],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const props = resources(template)[functionId(template, stack, name)]!.Properties!;
        const logGroup = (props.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        expect(resources(template)[logGroup]!.Properties!.RetentionInDays).toBe(days);
      }
    }
  });

  it('traces every invocation with X-Ray and names its service and metrics namespace for Powertools', () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const id = functionId(template, stack, name);
        const props = resources(template)[id]!.Properties!;
        expect(props.TracingConfig, name).toEqual({ Mode: 'Active' });
        expect((props.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
          POWERTOOLS_SERVICE_NAME: name,
          POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        });
        // Active tracing needs the role to send segments; CDK adds the grant with the setting.
        const actions = roleStatements(template, id).flatMap(actionsOf);
        expect(actions, name).toEqual(
          expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
        );
      }
    }
  });

  it("grants on every resource only what X-Ray's tracing needs", () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const anywhere = roleStatements(template, functionId(template, stack, name)).filter(
          (st) => st.Resource === '*',
        );
        expect(anywhere.flatMap(actionsOf).sort(), name).toEqual([
          'xray:PutTelemetryRecords',
          'xray:PutTraceSegments',
        ]);
      }
    }
  });

  it('traces API requests from the stage on', () => {
    for (const template of [dev, prod]) {
      template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
      expect(Object.keys(template.findResources('AWS::ApiGateway::Stage'))).toHaveLength(1);
    }
  });

  it('reads only what each needs from the table', () => {
    const writes = (statements: TStatement[]) => statements.flatMap(actionsOf).includes('dynamodb:PutItem');
    const reads = (statements: TStatement[]) => statements.flatMap(actionsOf).includes('dynamodb:GetItem');
    const authorizer = roleStatements(dev, functionId(dev, 'Esign-dev', 'authorizer'));
    const persons = roleStatements(dev, functionId(dev, 'Esign-dev', 'persons'));
    const account = roleStatements(dev, functionId(dev, 'Esign-dev', 'account'));
    expect([reads(authorizer), writes(authorizer)]).toEqual([true, false]);
    expect([reads(persons), writes(persons)]).toEqual([true, true]);
    expect([reads(account), writes(account)]).toEqual([true, false]);
  });

  it('lets only the bundles function near the documents bucket, to read and add, never delete', () => {
    const s3 = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name))
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('s3:'));
    expect(s3('bundles')).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
    expect(s3('bundles').filter((a) => a.startsWith('s3:Delete'))).toEqual([]);
    for (const name of ['authorizer', 'persons', 'account']) expect(s3(name), name).toEqual([]);
    const bundles = roleStatements(dev, functionId(dev, 'Esign-dev', 'bundles'));
    expect(bundles.flatMap(actionsOf)).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query']),
    );
  });

  it('gives the functions that change bundles the notifications queue to send to, with a dead-letter queue behind it', () => {
    const queues = Object.values(dev.findResources('AWS::SQS::Queue')).map(
      (q) => (q as TResource).Properties!,
    );
    const main = queues.find((q) => q.QueueName === 'esign-dev-notifications');
    expect(main).toBeDefined();
    expect(queues.some((q) => q.QueueName === 'esign-dev-notifications-dlq')).toBe(true);
    expect((main!.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBeGreaterThan(0);
    const actions = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name)).flatMap(actionsOf);
    expect(actions('packets')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    // Packets reads the bucket only, to hand out a certificate's presigned link.
    expect(actions('packets').filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
    const notificationsId = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-notifications' });
    for (const { name } of lambdaEntries()) {
      if (PUBLISHERS.includes(name)) continue;
      // It consumes the queue, never sends to it (see "notifications worker").
      if (name === 'notifications-worker') continue;
      const sqs = roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('sqs:')),
      );
      expect(JSON.stringify(sqs.map((st) => st.Resource)), name).not.toContain(notificationsId);
    }
    const env = (
      resources(dev)[functionId(dev, 'Esign-dev', 'packets')]!.Properties!.Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['NOTIFICATIONS_QUEUE_URL', 'PUBLIC_BASE_URL']));
  });

  it('seals webhook secrets with a rotating KMS key only the webhooks functions may use', () => {
    for (const [template, stack, stage, policy] of [
      [dev, 'Esign-dev', 'dev', 'Delete'],
      [prod, 'Esign-prod', 'prod', 'Retain'],
    ] as const) {
      // The webhook secrets key, and the seal key (its own test below).
      const keys = template.findResources('AWS::KMS::Key');
      expect(Object.keys(keys)).toHaveLength(2);
      const keyId = Object.keys(keys).find((id) => keys[id]!.Properties?.KeyUsage === undefined)!;
      expect(keys[keyId]!.Properties).toMatchObject({ EnableKeyRotation: true });
      expect(keys[keyId]!.DeletionPolicy).toBe(policy);
      template.hasResourceProperties('AWS::KMS::Alias', {
        AliasName: `alias/esign-${stage}-webhook-secrets`,
        TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
      });

      const webhooksId = functionId(template, stack, 'webhooks');
      const env = (
        resources(template)[webhooksId]!.Properties!.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(env.SECRETS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });

      const kms = roleStatements(template, webhooksId).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('kms:')),
      );
      expect(kms).toHaveLength(1);
      expect(actionsOf(kms[0]!).sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
      expect([kms[0]!.Resource].flat()).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
      expect((kms[0] as TStatement & { Condition?: unknown }).Condition).toEqual({
        Null: { 'kms:EncryptionContext:accountId': 'false' },
      });

      for (const { name } of lambdaEntries()) {
        // The dispatcher signs every call, so it opens sealed secrets too (same statement shape);
        // the document worker signs seals with the seal key (its own test).
        if (name === 'webhooks' || name === 'webhook-dispatcher' || name === 'document-worker') continue;
        const id = functionId(template, stack, name);
        const actions = roleStatements(template, id).flatMap(actionsOf);
        expect(
          actions.filter((a) => a.startsWith('kms:')),
          name,
        ).toEqual([]);
        const vars = (
          resources(template)[id]!.Properties!.Environment as { Variables: Record<string, unknown> }
        ).Variables;
        expect(vars, name).not.toHaveProperty('SECRETS_KEY_ID');
      }
    }
  });

  it('tells every endpoint function the public base URL (the stage URL), which links are built on instead of Host', () => {
    for (const name of new Set([...API_ROUTES, ...PUBLIC_ROUTES].map((r) => r.fn))) {
      const vars = (
        resources(dev)[functionId(dev, 'Esign-dev', name)]!.Properties!.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(render(vars.PUBLIC_BASE_URL), name).toMatch(
        /^https:\/\/<\w+>\.execute-api\.<AWS::Region>\.<AWS::URLSuffix>\/dev$/,
      );
    }
  });

  it('gives every keyed endpoint function only GET on its usage plan (the rate limit headers), the signing function none', () => {
    const planId = logicalIdOf(dev, 'AWS::ApiGateway::UsagePlan', {});
    const plan = `arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<${planId}>`;
    const apiGatewayStatements = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('apigateway:')),
      );
    for (const name of new Set(API_ROUTES.map((r) => r.fn))) {
      const apigw = apiGatewayStatements(name);
      expect(apigw, name).toHaveLength(1);
      expect(actionsOf(apigw[0]!)).toEqual(['apigateway:GET']);
      expect([apigw[0]!.Resource].flat().map(render).sort()).toEqual([plan, `${plan}/usage`]);
    }
    expect(apiGatewayStatements('public-pages')).toEqual([]);
  });
});

describe('stage config', () => {
  it('turns deletion protection on everywhere but dev', () => {
    expect(stageConfig('dev').deletionProtection).toBe(false);
    expect(stageConfig('prod').deletionProtection).toBe(true);
    expect(stageConfig('staging').deletionProtection).toBe(true);
  });

  it('takes numbers from context, as strings from -c or numbers from cdk.json', () => {
    const context: Record<string, unknown> = { quotaPerDay: '1000', throttleRate: 5, throttleBurst: '7' };
    const config = stageConfig('dev', (key) => context[key]);
    expect(config.rateLimits).toEqual({ quotaPerDay: 1000, throttleRatePerSecond: 5, throttleBurst: 7 });
    expect(
      stageConfig('dev', (key) => (key === 'publicPathLimit' ? '250' : undefined)).publicPathLimits,
    ).toEqual({ requestsPerWindow: 250, windowSeconds: 60 });
  });

  it('takes the timestamp authorities from context: http(s) URLs without credentials, none by default', () => {
    expect(stageConfig('dev').tsaUrls).toEqual([]);
    expect(
      stageConfig('dev', (key) => (key === 'tsaUrls' ? 'https://a.example/tsr https://b.example' : undefined))
        .tsaUrls,
    ).toEqual(['https://a.example/tsr', 'https://b.example']);
    for (const bad of ['ftp://a.example/tsr', 'https://user:pass@a.example/', 'not a url']) {
      expect(() => stageConfig('dev', (key) => (key === 'tsaUrls' ? bad : undefined)), bad).toThrow(
        /http\(s\) URLs without credentials/,
      );
    }
  });

  it('gives the document worker the timestamp authorities (B-LTA seals) only where some are configured', () => {
    const envOf = (template: Template) =>
      (
        resources(template)[
          functionId(template, template === dev ? 'Esign-dev' : 'Esign-prod', 'document-worker')
        ]!.Properties!.Environment as { Variables: Record<string, unknown> }
      ).Variables;
    expect(envOf(dev)).not.toHaveProperty('TSA_URLS');
    expect(envOf(dev)).not.toHaveProperty('TSA_SECRET_ID');
    expect(envOf(prod).TSA_URLS).toBe(TSA_URLS.join(' '));
    expect(envOf(prod).PADES_LEVEL).toBe('B-LTA');
    expect(envOf(dev)).not.toHaveProperty('PADES_LEVEL');
    // Their credentials: a secret created without a value, which only the worker reads.
    const secretId = logicalIdOf(prod, 'AWS::SecretsManager::Secret', { Name: 'esign-prod-tsa-credentials' });
    expect(resources(prod)[secretId]!.Properties).not.toHaveProperty('GenerateSecretString');
    expect(render(envOf(prod).TSA_SECRET_ID)).toBe(`<${secretId}>`);
    expect(
      dev.findResources('AWS::SecretsManager::Secret', { Properties: { Name: 'esign-dev-tsa-credentials' } }),
    ).toEqual({});
  });

  it('takes the PAdES level from context: B-LTA by default, B-T on request, nothing else', () => {
    expect(stageConfig('dev').padesLevel).toBe('B-LTA');
    expect(stageConfig('dev', (key) => (key === 'padesLevel' ? 'B-T' : undefined)).padesLevel).toBe('B-T');
    for (const bad of ['B-B', 'b-lta', 'LTA'])
      expect(() => stageConfig('dev', (key) => (key === 'padesLevel' ? bad : undefined)), bad).toThrow(
        /must be one of B-T, B-LTA/,
      );
  });

  it('tells the notifications worker how long signed-copy links work: 30 days unless context says', () => {
    const envOf = (template: Template, stack: string) =>
      (
        resources(template)[functionId(template, stack, 'notifications-worker')]!.Properties!.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
    expect(envOf(dev, 'Esign-dev').COPY_LINK_DAYS).toBe('30');
    expect(envOf(prod, 'Esign-prod').COPY_LINK_DAYS).toBe('30');
    expect(stageConfig('dev').copyLinkDays).toBe(30);
    expect(stageConfig('dev', (key) => (key === 'copyLinkDays' ? '7' : undefined)).copyLinkDays).toBe(7);
    for (const bad of ['0', '-3', 'a month', '2.5'])
      expect(() => stageConfig('dev', (key) => (key === 'copyLinkDays' ? bad : undefined)), bad).toThrow(
        /copyLinkDays/,
      );
  });

  it('rejects nonsense instead of deploying it', () => {
    expect(() => stageConfig('Prod_1')).toThrow();
    expect(() => stageConfig('dev', (key) => (key === 'quotaPerDay' ? 'lots' : undefined))).toThrow();
    expect(() => stageConfig('dev', (key) => (key === 'logRetentionDays' ? 10 : undefined))).toThrow();
    // WAF's rate-based rules count no fewer than 10 requests.
    expect(() => stageConfig('dev', (key) => (key === 'publicPathLimit' ? 5 : undefined))).toThrow();
  });
});

describe('webhook delivery', () => {
  const queueId = (template: Template, name: string) =>
    logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: name });

  it('has the deliveries queue with a dead-letter queue after the last attempt, and an alarm on its depth', () => {
    const all = resources(dev);
    const main = all[queueId(dev, 'esign-dev-webhook-deliveries')]!.Properties!;
    const dlqId = queueId(dev, 'esign-dev-webhook-deliveries-dlq');
    expect(main.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: MAX_ATTEMPTS,
    });
    expect(main.VisibilityTimeout).toBe(QUEUES.webhookDeliveries.visibilityTimeoutSeconds);
    dev.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('runs the dispatcher from the queue with batch item failures and reserved concurrency', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const fnId = functionId(template, stack, 'webhook-dispatcher');
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.ReservedConcurrentExecutions).toBe(stageConfig(stage).webhookDispatcherConcurrency);
      // Every call ends within 10 s; the queue hides a batch longer than the function may run.
      expect(fn.Timeout).toBeLessThan(QUEUES.webhookDeliveries.visibilityTimeoutSeconds);
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId },
        EventSourceArn: { 'Fn::GetAtt': [queueId(template, `esign-${stage}-webhook-deliveries`), 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const actions = roleStatements(template, fnId).flatMap(actionsOf);
      expect(actions).toEqual(expect.arrayContaining(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage']));
    }
  });

  it('lets every function that changes bundles publish, and sweeps outboxes every minute', () => {
    const queue = queueId(dev, 'esign-dev-webhook-deliveries');
    for (const name of ['bundles', 'packets', 'persons', 'webhooks', 'outbox-sweeper'] as const) {
      const id = functionId(dev, 'Esign-dev', name);
      const vars = (resources(dev)[id]!.Properties!.Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(vars.WEBHOOK_QUEUE_URL, name).toEqual({ Ref: queue });
      const sends = roleStatements(dev, id).filter((st) => actionsOf(st).includes('sqs:SendMessage'));
      expect(JSON.stringify(sends.map((st) => st.Resource)), name).toContain(queue);
    }
    dev.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId(dev, 'Esign-dev', 'outbox-sweeper'), 'Arn'] } }),
      ],
    });
  });
});

describe('notifications worker', () => {
  const fnOf = (template: Template, stack: string) => functionId(template, stack, 'notifications-worker');

  it('consumes the notifications queue with batch item failures, within its visibility timeout', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const fnId = fnOf(template, stack);
      const queue = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-notifications` });
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId },
        EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.Timeout).toBeLessThan(QUEUES.notifications.visibilityTimeoutSeconds);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(vars)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'PUBLIC_BASE_URL', 'MAIL_FROM', 'SES_CONFIGURATION_SET']),
      );
      expect(vars.NOTIFICATIONS_QUEUE_URL).toEqual({ Ref: queue });
      const statements = roleStatements(template, fnId);
      const actions = statements.flatMap(actionsOf);
      expect(actions).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      // It queues no jobs (it sends only to the failure queue of its SNS invocations), touches no
      // secrets, and reads the documents (a documents-ready email may attach the signed copies)
      // but never writes or deletes one.
      const sends = statements.filter((st) => actionsOf(st).includes('sqs:SendMessage'));
      const failures = logicalIdOf(template, 'AWS::SQS::Queue', {
        QueueName: `esign-${stage}-mail-events-dlq`,
      });
      expect(sends.map((st) => st.Resource)).toEqual([{ 'Fn::GetAtt': [failures, 'Arn'] }]);
      expect(actions.filter((a) => /^(kms|apigateway):/.test(a))).toEqual([]);
      expect(actions.filter((a) => /^s3:/.test(a)).sort()).toEqual([
        's3:GetBucket*',
        's3:GetObject*',
        's3:List*',
      ]);
    }
  });

  it('may send email only from the configured address, with the configuration set, and SMS only to phones', () => {
    const statements = roleStatements(dev, fnOf(dev, 'Esign-dev')) as (TStatement & {
      Condition?: unknown;
      NotResource?: unknown;
    })[];
    const ses = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect(actionsOf(ses[0]!)).toEqual(['ses:SendEmail']);
    const sesResources = [ses[0]!.Resource].flat().map(render);
    expect(sesResources).not.toContain('*');
    expect(sesResources.some((r) => r.includes(':identity/example.com'))).toBe(true);
    expect(sesResources.some((r) => /:configuration-set\//.test(r))).toBe(true);
    expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });

    const sns = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sns:')));
    expect(sns).toHaveLength(1);
    expect(actionsOf(sns[0]!)).toEqual(['sns:Publish']);
    expect(sns[0]!.Resource).toBeUndefined();
    expect(render(sns[0]!.NotResource)).toBe('arn:<AWS::Partition>:sns:*:*:*');
  });

  it('hears SES bounces and complaints through a topic, and keeps reports it could not record', () => {
    const fnId = fnOf(dev, 'Esign-dev');
    const topic = logicalIdOf(dev, 'AWS::SNS::Topic', {
      DisplayName: 'esign-dev: SES bounces and complaints',
    });
    dev.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['bounce', 'complaint']),
        SnsDestination: { TopicARN: { Ref: topic } },
      }),
    });
    dev.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: topic },
      Endpoint: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
    dev.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId },
      MaximumRetryAttempts: 2,
      DestinationConfig: {
        OnFailure: {
          Destination: {
            'Fn::GetAtt': [
              logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-mail-events-dlq' }),
              'Arn',
            ],
          },
        },
      },
    });
    const dlq = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-notifications-dlq' });
    dev.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
      Threshold: 1,
    });
  });
});

describe('scheduler (reminders and expiry)', () => {
  it('runs the scheduler every five minutes, publishing like the functions that change bundles', () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      const fnId = functionId(template, stack, 'scheduler');
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(5 minutes)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
        Principal: 'events.amazonaws.com',
      });
      const fn = resources(template)[fnId]!.Properties!;
      // A run ends well before the next one starts (overlapping runs would still be safe).
      expect(fn.Timeout).toBeLessThanOrEqual(300);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars.TABLE_NAME).toEqual({ Ref: expect.any(String) });
      const stage = stack === 'Esign-dev' ? 'dev' : 'prod';
      const queues = ['webhook-deliveries', 'notifications'].map((q) =>
        logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-${q}` }),
      );
      expect(vars.WEBHOOK_QUEUE_URL).toEqual({ Ref: queues[0] });
      expect(vars.NOTIFICATIONS_QUEUE_URL).toEqual({ Ref: queues[1] });
      const statements = roleStatements(template, fnId);
      const sends = JSON.stringify(
        statements.filter((st) => actionsOf(st).includes('sqs:SendMessage')).map((st) => st.Resource),
      );
      for (const q of queues) expect(sends).toContain(q);
      const actions = statements.flatMap(actionsOf);
      // It queries the by-due index and writes bundles; it needs nothing of S3, KMS or API Gateway.
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem']));
      expect(actions.filter((a) => /^(s3|kms|apigateway):/.test(a))).toEqual([]);
    }
  });

  it('declares the sparse by-due index, keys only', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: 'by-due',
          KeySchema: [
            { AttributeName: 'duePk', KeyType: 'HASH' },
            { AttributeName: 'dueSk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ]),
    });
  });
});

/**
 * A worker its queue feeds one message at a time, reporting batch item failures: the function's,
 * the queue's and the dead-letter queue's logical ids.
 */
function oneJobAtATime(template: Template, stack: string, stage: string, fn: string, queueName: string) {
  const fnId = functionId(template, stack, fn);
  const queue = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-${queueName}` });
  const dlq = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-${queueName}-dlq` });
  template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: fnId },
    EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
    BatchSize: 1,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
  return { fnId, queue, dlq };
}

describe('bulk worker', () => {
  it('consumes the bulk-jobs queue a chunk at a time, paced by the stage throttle, with a DLQ alarm', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const { fnId, queue, dlq } = oneJobAtATime(template, stack, stage, 'bulk-worker', 'bulk-jobs');
      const q = resources(template)[queue]!.Properties!;
      expect((q.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(
        QUEUES.bulkJobs.maxReceiveCount,
      );
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.Timeout).toBeLessThan(QUEUES.bulkJobs.visibilityTimeoutSeconds);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars.BULK_QUEUE_URL).toEqual({ Ref: queue });
      expect(vars.BULK_ROWS_PER_SECOND).toBe('25');
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
        Threshold: 1,
      });
      // The bundles function queues a batch's first chunk.
      const bundlesEnv = (
        resources(template)[functionId(template, stack, 'bundles')]!.Properties!.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(bundlesEnv.BULK_QUEUE_URL).toEqual({ Ref: queue });
    }
  });
});

describe('document worker (evidence)', () => {
  const stages = [
    [() => dev, 'Esign-dev', 'dev'],
    [() => prod, 'Esign-prod', 'prod'],
  ] as const;

  it('consumes the document-jobs queue one job at a time with batch item failures, within its visibility timeout', () => {
    for (const [templateOf, stack, stage] of stages) {
      const template = templateOf();
      const { fnId, queue, dlq } = oneJobAtATime(template, stack, stage, 'document-worker', 'document-jobs');
      const q = resources(template)[queue]!.Properties!;
      expect(q.VisibilityTimeout).toBe(QUEUES.documentJobs.visibilityTimeoutSeconds);
      expect((q.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(DOCUMENT_MAX_ATTEMPTS);
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.MemorySize).toBe(DOCUMENT_WORKER_MEMORY_MB);
      expect(fn.Timeout).toBeLessThan(QUEUES.documentJobs.visibilityTimeoutSeconds);
      expect(fn.Timeout).toBeLessThan(FINAL_LEASE_SECONDS);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
        Threshold: 1,
      });
    }
  });

  it('keeps the seal identity in a secret with no generated value, which only the worker reads and writes', () => {
    for (const [templateOf, stack, stage] of stages) {
      const template = templateOf();
      const secrets = template.findResources('AWS::SecretsManager::Secret');
      // The seal identity, the seal chain, the Stripe keys, and with timestamp authorities (prod
      // here) their credentials.
      expect(Object.keys(secrets)).toHaveLength(stage === 'prod' ? 4 : 3);
      const secretId = Object.keys(secrets).find(
        (id) => (secrets[id] as TResource).Properties?.Name === `esign-${stage}-seal-identity`,
      )!;
      const secret = secrets[secretId] as TResource;
      expect(secret.Properties).toMatchObject({ Name: `esign-${stage}-seal-identity` });
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
      expect(secret.Properties).not.toHaveProperty('SecretString');
      expect(secret.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');

      const fnId = functionId(template, stack, 'document-worker');
      const vars = (
        resources(template)[fnId]!.Properties!.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(vars.SEAL_SECRET_ID).toEqual({ Ref: secretId });
      const sm = roleStatements(template, fnId).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('secretsmanager:')),
      );
      expect(sm.flatMap(actionsOf)).toEqual(
        expect.arrayContaining(['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue']),
      );
      const allowed = secretsReachable(secrets, stage, secretId);
      for (const st of sm) for (const r of [st.Resource].flat()) expect(allowed).toContainEqual(r);

      for (const { name } of lambdaEntries()) {
        // The signing function reads the Stripe keys (its own test below).
        if (name === 'document-worker' || name === 'public-pages') continue;
        const id = functionId(template, stack, name);
        const actions = roleStatements(template, id).flatMap(actionsOf);
        expect(
          actions.filter((a) => a.startsWith('secretsmanager:')),
          name,
        ).toEqual([]);
        const env = (
          resources(template)[id]!.Properties!.Environment as { Variables: Record<string, unknown> }
        ).Variables;
        expect(env, name).not.toHaveProperty('SEAL_SECRET_ID');
      }
    }
  });

  it('keeps the seal key in KMS (RSA 3072, signing only, retained), which only the worker may Sign with', () => {
    for (const [templateOf, stack, stage] of stages) {
      const template = templateOf();
      const keys = template.findResources('AWS::KMS::Key', { Properties: { KeyUsage: 'SIGN_VERIFY' } });
      expect(Object.keys(keys)).toHaveLength(1);
      const keyId = Object.keys(keys)[0]!;
      expect(keys[keyId]!.Properties).toMatchObject({ KeySpec: 'RSA_3072', KeyUsage: 'SIGN_VERIFY' });
      expect(keys[keyId]!.DeletionPolicy).toBe('Retain');
      template.hasResourceProperties('AWS::KMS::Alias', {
        AliasName: `alias/esign-${stage}-seal`,
        TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
      });
      const secrets = template.findResources('AWS::SecretsManager::Secret');
      const chainId = Object.keys(secrets).find(
        (id) => (secrets[id] as TResource).Properties?.Name === `esign-${stage}-seal-chain`,
      )!;
      expect(secrets[chainId]!.Properties).not.toHaveProperty('GenerateSecretString');

      const fnId = functionId(template, stack, 'document-worker');
      const vars = (
        resources(template)[fnId]!.Properties!.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(vars).toMatchObject({
        SEAL_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] },
        SEAL_NAME: `esign-${stage}-seal`,
        SEAL_CHAIN_SECRET_ID: { Ref: chainId },
      });
      const kms = roleStatements(template, fnId).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('kms:')),
      );
      expect(kms).toHaveLength(2);
      for (const st of kms) expect(actionsOf(st).sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
      // The service's key by its ARN; accounts' keys only under their aliases; never any key.
      const [own, accounts] = kms as (TStatement & { Condition?: unknown })[];
      expect([own!.Resource].flat()).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
      expect(own!.Condition).toBeUndefined();
      expect(accounts!.Condition).toEqual({
        'ForAnyValue:StringLike': { 'kms:ResourceAliases': `alias/esign-${stage}-seal-account-*` },
      });
      for (const st of kms) expect([st.Resource].flat()).not.toContain('*');

      for (const { name } of lambdaEntries()) {
        if (name === 'document-worker') continue;
        const id = functionId(template, stack, name);
        const actions = roleStatements(template, id).flatMap(actionsOf);
        expect(actions, name).not.toContain('kms:Sign');
      }
      const outputs = (template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
      expect(outputs.SealName?.Value).toBe(`esign-${stage}-seal`);
    }
  });

  it('keeps the Stripe keys in a secret with no generated value, which only the signing function reads', () => {
    for (const [templateOf, stack, stage] of stages) {
      const template = templateOf();
      const secrets = template.findResources('AWS::SecretsManager::Secret');
      const secretId = Object.keys(secrets).find(
        (id) => (secrets[id] as TResource).Properties?.Name === `esign-${stage}-stripe-keys`,
      )!;
      expect(secretId).toBeDefined();
      const secret = secrets[secretId] as TResource;
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
      expect(secret.Properties).not.toHaveProperty('SecretString');
      const fnId = functionId(template, stack, 'public-pages');
      const vars = (
        resources(template)[fnId]!.Properties!.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(vars.STRIPE_SECRET_ID).toEqual({ Ref: secretId });
      expect(vars).not.toHaveProperty('SEAL_SECRET_ID');
      const sm = roleStatements(template, fnId).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('secretsmanager:')),
      );
      expect(sm.flatMap(actionsOf)).toContain('secretsmanager:GetSecretValue');
      expect(sm.flatMap(actionsOf)).not.toContain('secretsmanager:PutSecretValue');
      const allowed = secretsReachable(secrets, stage, secretId);
      for (const st of sm) for (const r of [st.Resource].flat()) expect(allowed).toContainEqual(r);
    }
  });

  it('lets the worker read and write the table and the bucket (never delete objects), and publish', () => {
    const fnId = functionId(dev, 'Esign-dev', 'document-worker');
    const statements = roleStatements(dev, fnId);
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:Query',
        's3:GetObject*',
        's3:PutObject',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:SendMessage',
      ]),
    );
    expect(actions.filter((a) => a.startsWith('s3:Delete'))).toEqual([]);
    // Of KMS, only signing seals (their own test above).
    expect(actions.filter((a) => /^kms:/.test(a)).sort()).toEqual([
      'kms:GetPublicKey',
      'kms:GetPublicKey',
      'kms:Sign',
      'kms:Sign',
    ]);
    expect(actions.filter((a) => /^(apigateway|ses|sns):/.test(a))).toEqual([]);
  });

  it('gives every function that changes bundles DOCUMENTS_QUEUE_URL and the right to send to it', () => {
    const queue = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-document-jobs' });
    for (const { name } of lambdaEntries()) {
      const id = functionId(dev, 'Esign-dev', name);
      const vars = (resources(dev)[id]!.Properties!.Environment as { Variables: Record<string, unknown> })
        .Variables;
      const sends = JSON.stringify(
        roleStatements(dev, id)
          .filter((st) => actionsOf(st).includes('sqs:SendMessage'))
          .map((st) => st.Resource),
      );
      if (PUBLISHERS.includes(name)) {
        expect(vars.DOCUMENTS_QUEUE_URL, name).toEqual({ Ref: queue });
        expect(sends, name).toContain(queue);
      } else {
        expect(vars, name).not.toHaveProperty('DOCUMENTS_QUEUE_URL');
        expect(sends, name).not.toContain(queue);
      }
    }
  });

  it('serves POST /api/v2/verify/ from the bundles function and the public /verify page from the signing function', () => {
    expect(API_ROUTES).toContainEqual({ resource: 'verify', fn: 'bundles' });
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'verify', fn: 'public-pages' });
    for (const [name, paths] of [
      [
        'bundles',
        ['dev/*/api/v2/bundles', 'dev/*/api/v2/bundles/*', 'dev/*/api/v2/verify', 'dev/*/api/v2/verify/*'],
      ],
      [
        'public-pages',
        [
          'dev/*/sign',
          'dev/*/sign/*',
          'dev/*/verify',
          'dev/*/verify/*',
          'dev/*/portal',
          'dev/*/portal/*',
          // Stripe's webhook and the local test checkout page.
          'dev/*/payments',
          'dev/*/payments/*',
          // Template preparation pages and their token API.
          'dev/*/prepare',
          'dev/*/prepare/*',
          // The API's description, without an API key.
          'dev/*/api/v2/openapi.json',
          'dev/*/api/v2/openapi.json/*',
          // The API reference page over it.
          'dev/*/docs',
          'dev/*/docs/*',
        ],
      ],
    ] as const) {
      const fnId = functionId(dev, 'Esign-dev', name);
      const sources = Object.values(
        dev.findResources('AWS::Lambda::Permission', {
          Properties: {
            FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
            Principal: 'apigateway.amazonaws.com',
          },
        }),
      ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
      expect(sources.sort(), name).toEqual([...paths].sort());
    }
  });
});

describe('envelope templates and portal smart links', () => {
  it('serves /api/v2/envelope-templates from its own function, which knows the public base URL', () => {
    expect(API_ROUTES).toContainEqual({ resource: 'envelope-templates', fn: 'envelope-templates' });
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'portal', fn: 'public-pages' });
    const fnId = functionId(dev, 'Esign-dev', 'envelope-templates');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] }, Principal: 'apigateway.amazonaws.com' },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    expect(sources.sort()).toEqual(['dev/*/api/v2/envelope-templates', 'dev/*/api/v2/envelope-templates/*']);
    const vars = (resources(dev)[fnId]!.Properties!.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(vars).toHaveProperty('PUBLIC_BASE_URL');
    expect(vars).toHaveProperty('TABLE_NAME');
  });

  it('turns on the table TTL that ends the portal counters', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });
});

/** Every acceptance recorded in the tree: rule id → reason, with where it was made. */
function acceptances(root: IConstruct): { path: string; rule: string; reason: string }[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([rule, reason]) => ({
          path: c.node.path,
          rule: rule.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

describe('a custom domain', () => {
  const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9';
  const withDomain = (extra: Record<string, string>) => {
    // Not bundled (an empty bundling-stacks list): only the template is read.
    const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const read = (key: string) => ({ domainName: 'sign.example.org', ...extra })[key];
    const stack = new EsignStack(app, 'Esign-site', { config: stageConfig('site', read) });
    return { stack, template: Template.fromStack(stack) };
  };

  it('puts the API and the pages on it, and every link the service writes uses it', () => {
    const { stack, template } = withDomain({ certificateArn: CERT });
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'sign.example.org',
      RegionalCertificateArn: CERT,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    const stageId = logicalIdOf(template, 'AWS::ApiGateway::Stage', { StageName: 'site' });
    template.hasResourceProperties('AWS::ApiGateway::BasePathMapping', { Stage: { Ref: stageId } });
    // Signing links (public pages), smart links (envelope templates), Link headers (every endpoint).
    for (const name of ['public-pages', 'envelope-templates', 'bundles', 'notifications-worker']) {
      const vars = (
        resources(template)[functionId(template, 'Esign-site', name)]!.Properties!.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(vars.PUBLIC_BASE_URL, name).toBe('https://sign.example.org');
    }
    const outputs = (template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
    expect(outputs.ApiUrl?.Value).toBe('https://sign.example.org/api/v2/');
    // The WAF counts the public paths as they arrive on the domain too (no stage in the path).
    const acl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0]!;
    expect(JSON.stringify(acl.Properties)).toContain('"SearchString":"/sign/api/session"');
    expect(JSON.stringify(acl.Properties)).toContain('"SearchString":"/site/sign/api/session"');
    expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
  }, 120_000);

  it('makes and validates the certificate in a hosted zone, and adds the alias record', () => {
    const { template } = withDomain({ hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'example.org' });
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: 'sign.example.org',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'sign.example.org', HostedZoneId: 'Z0123456789ABCDEFGHIJ' }],
    });
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'sign.example.org.',
      Type: 'A',
      HostedZoneId: 'Z0123456789ABCDEFGHIJ',
    });
  }, 120_000);

  it('refuses a domain it cannot serve, saying what to give', () => {
    const config = (values: Record<string, string>) => () => stageConfig('site', (key) => values[key]);
    expect(config({ domainName: 'sign.example.org' })).toThrow(/certificateArn.*hostedZoneId/);
    expect(config({ domainName: 'not a host', certificateArn: CERT })).toThrow(/host name/);
    expect(config({ domainName: 'sign.example.org', certificateArn: 'arn:aws:iam::1:role/x' })).toThrow(
      /ACM/,
    );
    expect(
      config({ domainName: 'sign.example.com', hostedZoneId: 'Z1', hostedZoneName: 'example.org' }),
    ).toThrow(/not in the hosted zone/);
    expect(config({ certificateArn: CERT })).toThrow(/domainName/);
    expect(stageConfig('dev').customDomain).toBeUndefined();
  });
});

describe('operations: alarms that reach someone', () => {
  const topicOf = (template: Template) =>
    logicalIdOf(template, 'AWS::SNS::Topic', { TopicName: 'esign-dev-alarms' });

  it('puts the alarm topic on every alarm of the stack, the dead-letter alarms included', () => {
    const topic = logicalIdOf(dev, 'AWS::SNS::Topic', { TopicName: 'esign-dev-alarms' });
    const alarms = Object.entries(dev.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(20);
    for (const [id, alarm] of alarms) {
      expect((alarm.Properties as { AlarmActions?: unknown[] }).AlarmActions, id).toEqual([{ Ref: topic }]);
    }
    expect(alarms.map(([, a]) => (a.Properties as { AlarmDescription: string }).AlarmDescription)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/dead|failed every delivery/i),
        'API answers 5xx',
        'DynamoDB throttled requests of the table',
        expect.stringMatching(/SES bounce rate/),
        expect.stringMatching(/SES complaint rate/),
        expect.stringMatching(/^Document jobs: the oldest has waited 15 minutes/),
        expect.stringMatching(/^Webhook deliveries: the oldest has waited/),
      ]),
    );
  });

  it('watches each function for errors and throttles', () => {
    for (const { name } of lambdaEntries()) {
      const fn = functionId(dev, 'Esign-dev', name);
      for (const metric of ['Errors', 'Throttles']) {
        const watching = Object.values(dev.findResources('AWS::CloudWatch::Alarm')).filter((a) => {
          const p = a.Properties as { MetricName?: string; Dimensions?: { Value: unknown }[] };
          return p.MetricName === metric && JSON.stringify(p.Dimensions ?? []).includes(fn);
        });
        expect(watching, `${name} ${metric}`).toHaveLength(1);
      }
    }
  });

  it('alarms on the API 5xx rate, not its count', () => {
    const rate = Object.values(dev.findResources('AWS::CloudWatch::Alarm')).find(
      (a) => (a.Properties as { AlarmDescription: string }).AlarmDescription === 'API answers 5xx',
    )!.Properties as { Threshold: number; Metrics: { Expression?: string }[] };
    expect(rate.Threshold).toBe(ALARM_THRESHOLDS.api5xxPercent);
    expect(rate.Metrics.map((m) => m.Expression).filter(Boolean)).toEqual([
      '100 * errors / MAX([requests, 1])',
    ]);
  });

  it('mails the topic only when asked (-c alarmEmail=…), and refuses what is not one address', () => {
    dev.resourceCountIs('AWS::SNS::Subscription', 1); // the mail events' Lambda subscription only
    // Its functions are not bundled (an empty bundling-stacks list): only the topic is looked at.
    const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const mailed = Template.fromStack(
      new EsignStack(app, 'Esign-ops', {
        config: stageConfig('ops', (key) => (key === 'alarmEmail' ? 'ops@example.org' : undefined)),
      }),
    );
    mailed.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.org',
      TopicArn: { Ref: logicalIdOf(mailed, 'AWS::SNS::Topic', { TopicName: 'esign-ops-alarms' }) },
    });
    expect(() => stageConfig('ops', (key) => (key === 'alarmEmail' ? 'a@b.org,c@d.org' : undefined))).toThrow(
      /one email address/,
    );
    expect(topicOf(dev)).toBeDefined();
  }, 120_000);

  it('has one dashboard with the same figures', () => {
    const dashboards = Object.values(dev.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties);
    for (const title of [
      'API 5xx (%)',
      'Function errors',
      'Function throttles',
      'Oldest job waiting',
      'SES reputation',
      'DynamoDB throttles',
    ])
      expect(body).toContain(title);
  });
});

// AWS's own rules on the synthesized stack: cdk-nag's AwsSolutions pack finds nothing that is not
// accepted on purpose, in both stages, and every acceptance says why (infra/nag.ts).
describe('cdk-nag (AwsSolutions)', () => {
  it.each(['dev', 'prod'] as const)(
    'finds nothing unaccepted in the %s stack',
    (stage) => {
      const report = new AwsSolutionsChecks().validateScope(stage === 'dev' ? devStack : prodStack);
      expect(
        report.violations.map(
          (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
        ),
      ).toEqual([]);
      expect(report.success).toBe(true);
    },
    120_000,
  );

  it('is live: a bucket made without care is reported', () => {
    const stack = new Stack(new App(), 'Careless');
    new Bucket(stack, 'Loose');
    const rules = new AwsSolutionsChecks().validateScope(stack).violations.map((v) => v.ruleName);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
  });

  it('accepts each finding with a reason a reviewer can weigh', () => {
    const found = acceptances(prodStack);
    expect(found.length).toBeGreaterThan(10);
    for (const a of found) {
      expect(a.rule, a.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(a.reason.length, `${a.path} ${a.rule}`).toBeGreaterThanOrEqual(80);
    }
    // No blanket acceptance: nothing is accepted for the whole stack or app.
    expect(found.filter((a) => !a.path.includes('/'))).toEqual([]);
  });
});

describe('MCP server for AI agents', () => {
  it('serves /mcp from its own function without the authorizer, which the function replaces by asking the API', () => {
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'mcp', fn: 'mcp' });
    const fnId = functionId(dev, 'Esign-dev', 'mcp');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] } },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    expect(sources.sort()).toEqual(['dev/*/mcp', 'dev/*/mcp/*']);
  });

  it('may reach nothing but its logs: its tools go through the public API like any client', () => {
    const actions = roleStatements(dev, functionId(dev, 'Esign-dev', 'mcp')).flatMap(actionsOf);
    const services = new Set(actions.map((a) => a.split(':')[0]));
    for (const service of ['dynamodb', 's3', 'sqs', 'kms', 'secretsmanager', 'apigateway', 'sns', 'ses']) {
      expect(services.has(service), service).toBe(false);
    }
  });
});
