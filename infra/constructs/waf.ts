// The API's web application firewall: only what came through the distribution (edge.ts), then
// per-address limits on the public token paths, then AWS's managed rule groups.
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../front-door';
import {
  PUBLIC_API_PREFIXES,
  PUBLIC_PATH_GROUPS,
  PUBLIC_PATH_LIMITED_ANSWERS,
  PUBLIC_PATH_LIMITED_LABEL,
} from '../public-path-limits';
import type { TStageConfig } from '../stage-config';

/**
 * AWS's managed rule groups after the limits: common web exploits and known bad inputs. Rules
 * listed in countOnly are counted, not enforced: SizeRestrictions_BODY blocks bodies over 8 KB,
 * and documents arrive as base64 in the body (up to 10 MB).
 */
export const MANAGED_RULE_GROUPS: ReadonlyArray<{ name: string; countOnly: readonly string[] }> = [
  { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
];

/**
 * Per-address limits on the public token paths (infra/public-path-limits.ts): one rate-based
 * rule per path group counts each client address and labels what is over the limit; two rules
 * after them block labelled requests with 429, the API's JSON error body on API paths and a short
 * page elsewhere (one rule can answer with one body only). Retry-After is the window: WAF cannot
 * compute when an address's count falls back.
 */
export function publicPathLimitsAcl(
  scope: Construct,
  config: TStageConfig,
  originVerify: ISecret,
): CfnWebACL {
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
  // Requests come from the distribution, whose origin path is the stage, custom domain or not.
  const anyOf = (prefixes: readonly string[]): CfnWebACL.StatementProperty => {
    const paths = prefixes.map((prefix) => `/${config.stage}${prefix}`);
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
      priority: i + 1,
      statement: {
        rateBasedStatement: {
          limit: requestsPerWindow,
          evaluationWindowSec: windowSeconds,
          // The viewer's address as the distribution wrote it; API Gateway sees an edge server's.
          aggregateKeyType: 'FORWARDED_IP',
          forwardedIpConfig: { headerName: VIEWER_ADDRESS_HEADER, fallbackBehavior: 'MATCH' },
          scopeDownStatement: anyOf(group.prefixes),
        },
      },
      action: { count: {} },
      ruleLabels: [{ name: PUBLIC_PATH_LIMITED_LABEL }],
      visibilityConfig: visibility(`${group.name}PerAddress`),
    }),
  );
  // First, before anything is counted: a request that did not come through the distribution.
  const viaEdgeOnly: CfnWebACL.RuleProperty = {
    name: 'ViaDistributionOnly',
    priority: 0,
    statement: {
      notStatement: {
        statement: {
          byteMatchStatement: {
            fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
            positionalConstraint: 'EXACTLY',
            searchString: originVerify.secretValue.unsafeUnwrap(),
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      },
    },
    action: { block: {} },
    visibilityConfig: visibility('ViaDistributionOnly'),
  };
  const next = counting.length + 1;
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
      viaEdgeOnly,
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
