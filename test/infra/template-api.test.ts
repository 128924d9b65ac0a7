// The API and its security (infra/constructs/api.ts): routes, authorizer, usage plan, gateway
// responses, WAF, custom domain.
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, PUBLIC_API_ROUTES, PUBLIC_ROUTES } from '#infra/api-routes';
import { gatewayErrorTemplate, RETRY_AFTER_SECONDS } from '#infra/constructs/gateway-responses';
import { MANAGED_RULE_GROUPS } from '#infra/constructs/waf';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '#infra/front-door';
import { PUBLIC_PATH_LIMITED_ANSWERS, PUBLIC_PATH_LIMITED_LABEL } from '#infra/public-path-limits';
import { EsignStack } from '#infra/stack';
import { DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS, DEFAULT_RATE_LIMITS, stageConfig } from '#infra/stage-config';
import {
  cdkJson,
  envVarsOf,
  functionId,
  liveAlias,
  logicalIdOf,
  render,
  resources,
  SYNTH_TIMEOUT_MS,
  synthStages,
  type TResource,
} from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
}, SYNTH_TIMEOUT_MS);

describe('REST API', () => {
  it('takes API keys from the authorizer and passes every body through as binary', () => {
    dev.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      BinaryMediaTypes: ['*/*'],
    });
  });

  it('has a REQUEST authorizer without a result cache (console requests carry a cookie, no header), its function caching keys 60 s', () => {
    expect(DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS).toBe(60);
    dev.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: Match.absent(),
      AuthorizerResultTtlInSeconds: 0,
    });
    dev.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'Esign-dev-authorizer',
      Environment: { Variables: Match.objectLike({ API_KEY_CACHE_SECONDS: '60' }) },
    });
  });

  it('serves every route of the shared table, each with a catch-all below, through its function', () => {
    const paths = Object.values(dev.findResources('AWS::ApiGateway::Resource')).map(
      (r) => (r as TResource).Properties!.PathPart,
    );
    const routes = [...API_ROUTES, ...PUBLIC_API_ROUTES, ...PUBLIC_ROUTES];
    const expected = ['api', 'v2', ...routes.flatMap((r) => [...r.resource.split('/'), '{proxy+}'])];
    expect(paths.sort()).toEqual(expected.sort());
    expect(paths).toEqual(expect.arrayContaining(['persons', 'rate_limit', 'bundles', 'sign']));
    const methods = Object.values(resources(dev)).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    expect(methods).toHaveLength(routes.length * 2);
    const targets = methods.map(
      (m) =>
        render((m.Properties!.Integration as { Uri: unknown }).Uri).match(
          /:function:([\w-]+):live\/invocations$/,
        )?.[1],
    );
    expect(targets.sort()).toEqual(routes.flatMap((r) => [`Esign-dev-${r.fn}`, `Esign-dev-${r.fn}`]).sort());
  });

  it('requires the authorizer and an API key on every method but the public signing and verify ones', () => {
    const all = resources(dev);
    // The public resources hang off the API's root (/sign, /verify, /console/api), not /api/v2
    // (/api/v2/verify). The API's description is public below /api/v2 (/api/v2/openapi.json).
    const pathOf = (id: string): string => {
      const r = all[id]!;
      const parent = (r.Properties!.ParentId as { Ref?: string }).Ref;
      const part = r.Properties!.PathPart as string;
      return parent ? `${pathOf(parent)}/${part}` : part;
    };
    const publicPaths = new Set([
      ...PUBLIC_ROUTES.map((r) => r.resource),
      ...PUBLIC_API_ROUTES.map((r) => `api/v2/${r.resource}`),
    ]);
    const publicIds = new Set(
      Object.entries(all)
        .filter(([id, r]) => r.Type === 'AWS::ApiGateway::Resource' && publicPaths.has(pathOf(id)))
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
        Properties: { FunctionName: liveAlias(dev, persons) },
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
        forwarded: r.Statement.RateBasedStatement.ForwardedIPConfig,
        action: r.Action,
        labels: r.RuleLabels,
      })),
    ).toEqual(
      [
        ['/dev/sign/api/session', '/dev/sign/copies/'],
        ['/dev/prepare/'],
        ['/dev/verify'],
        ['/dev/portal/'],
        ['/dev/console/api/sessions', '/dev/console/api/sign-in', '/dev/console/api/invitations/'],
      ].map((prefixes) => ({
        prefixes,
        limit: requestsPerWindow,
        window: windowSeconds,
        key: 'FORWARDED_IP',
        forwarded: { HeaderName: VIEWER_ADDRESS_HEADER, FallbackBehavior: 'MATCH' },
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

  it('first lets through only what came by the distribution: its secret header, the same value it sends', () => {
    const rules = rulesOf(webAcls()[0]![1]);
    const first = [...rules].sort((a, b) => a.Priority - b.Priority)[0]!;
    expect(first.Name).toBe('ViaDistributionOnly');
    expect(first.Action).toEqual({ Block: {} });
    const match = first.Statement.NotStatement.Statement.ByteMatchStatement;
    expect(match.FieldToMatch).toEqual({ SingleHeader: { Name: ORIGIN_VERIFY_HEADER } });
    expect(match.PositionalConstraint).toBe('EXACTLY');
    const origins = (
      Object.values(dev.findResources('AWS::CloudFront::Distribution'))[0]!.Properties as {
        DistributionConfig: { Origins: { CustomOriginConfig?: unknown; OriginCustomHeaders?: unknown[] }[] };
      }
    ).DistributionConfig.Origins;
    const toApi = origins.filter((o) => o.CustomOriginConfig);
    expect(toApi).toHaveLength(1);
    expect(toApi[0]!.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: match.SearchString },
    ]);
    // A dynamic reference to the generated secret, resolved at deploy: never in the template.
    expect(JSON.stringify(match.SearchString)).toContain('{{resolve:secretsmanager:');
  });

  it('blocks labelled requests with 429 and Retry-After: the JSON error body on API paths, a page elsewhere', () => {
    const acl = webAcls()[0]![1];
    const rules = rulesOf(acl);
    const blocks = rules.filter((r) => r.Action?.Block?.CustomResponse);
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
    ).toEqual(['/dev/sign/api/', '/dev/prepare/api/', '/dev/verify/api/', '/dev/console/api/']);
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

describe('a custom domain', () => {
  const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9';
  const withDomain = (extra: Record<string, string>) => {
    // Not bundled (an empty bundling-stacks list): only the template is read.
    const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const read = (key: string) => ({ domainName: 'sign.example.org', ...extra })[key];
    const stack = new EsignStack(app, 'Esign-site', { config: stageConfig('site', read) });
    return { stack, template: Template.fromStack(stack) };
  };

  it('puts the distribution on it, and every link the service writes uses it', () => {
    const { stack, template } = withDomain({ certificateArn: CERT });
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['sign.example.org'],
        ViewerCertificate: Match.objectLike({
          AcmCertificateArn: CERT,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        }),
      }),
    });
    // Signing links (public pages), smart links (envelope templates), Link headers (every endpoint).
    for (const name of ['public-pages', 'envelope-templates', 'bundles', 'notifications-worker']) {
      const vars = envVarsOf(template, functionId(template, 'Esign-site', name));
      expect(vars.PUBLIC_BASE_URL, name).toBe('https://sign.example.org');
    }
    const outputs = (template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
    expect(outputs.ApiUrl?.Value).toBe('https://sign.example.org/api/v2/');
    expect(outputs.ConsoleUrl?.Value).toBe('https://sign.example.org/console/');
    // The distribution reaches the stage by its path, so the WAF counts paths with the stage.
    const acl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0]!;
    expect(JSON.stringify(acl.Properties)).toContain('"SearchString":"/site/sign/api/session"');
    expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
  }, 120_000);

  it('makes and validates the certificate in a hosted zone, adds the alias record, and holds the deploy to us-east-1', () => {
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
      AliasTarget: Match.objectLike({
        DNSName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Edge'), 'DomainName'] },
      }),
    });
    const rules = (template.toJSON() as { Rules?: Record<string, { Assertions: { Assert: unknown }[] }> })
      .Rules;
    expect(rules?.CertificateInUsEast1?.Assertions[0]?.Assert).toEqual({
      'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'],
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
