// The template as a whole, the stage config it is built from, and cdk-nag's checks of it.
import { App, Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '#infra/bundling';
import type { EsignStack } from '#infra/stack';
import { stageConfig } from '#infra/stage-config';
import {
  acceptances,
  envVarsOf,
  functionId,
  logicalIdOf,
  render,
  resources,
  SYNTH_TIMEOUT_MS,
  synthStages,
  TSA_URLS,
} from './stack-template';

let dev: Template;
let prod: Template;
let devStack: EsignStack;
let prodStack: EsignStack;

beforeAll(() => {
  ({ dev, prod, devStack, prodStack } = synthStages());
}, SYNTH_TIMEOUT_MS);

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
    for (const name of ['ApiUrl', 'ConsoleUrl', 'TableName', 'BucketName', 'UsagePlanId', 'Region']) {
      dev.hasOutput(name, {});
    }
    // Both on the distribution, the one origin of the API, the pages and the console.
    const url = (name: string) => render((dev.findOutputs(name)[name] as { Value: unknown }).Value);
    expect(url('ApiUrl')).toMatch(/^https:\/\/<Edge\w+\.DomainName>\/api\/v2\/$/);
    expect(url('ConsoleUrl')).toMatch(/^https:\/\/<Edge\w+\.DomainName>\/console\/$/);
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
      envVarsOf(
        template,
        functionId(template, template === dev ? 'Esign-dev' : 'Esign-prod', 'document-worker'),
      );
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
      envVarsOf(template, functionId(template, stack, 'notifications-worker'));
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
