// Safe deploys (infra/constructs/deployments.ts): every function behind its live alias, moved to a
// new version gradually by CodeDeploy, which rolls back by itself when the function's alarms fire.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIVE_ALIAS } from '#infra/constructs/api-function';
import { DEPLOYMENT_CONFIG_OF } from '#infra/constructs/deployments';
import { DEPLOYMENT_STYLES, stageConfig } from '#infra/stage-config';
import {
  liveAliasName,
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

const ofType = (template: Template, type: string) =>
  Object.entries(resources(template)).filter(([, r]) => r.Type === type) as [string, TResource][];

describe('safe deploys', () => {
  it('publishes every function as a version behind a live alias that CodeDeploy moves', () => {
    for (const template of [dev, prod]) {
      const all = resources(template);
      // Ours, by their names; CDK's own custom resources (bucket deployments) are not deployed so.
      const functions = ofType(template, 'AWS::Lambda::Function').filter(([, f]) =>
        String(f.Properties!.FunctionName).startsWith('Esign-'),
      );
      const aliases = ofType(template, 'AWS::Lambda::Alias');
      expect(functions.length).toBeGreaterThan(15);
      expect(aliases).toHaveLength(functions.length);
      for (const [fnId] of functions) {
        const found = aliases.filter(([, a]) => render(a.Properties!.FunctionName) === `<${fnId}>`);
        expect(found, fnId).toHaveLength(1);
        const [, alias] = found[0]!;
        expect(alias.Properties!.Name).toBe(LIVE_ALIAS);
        const versionId = (alias.Properties!.FunctionVersion as { 'Fn::GetAtt': [string, string] })[
          'Fn::GetAtt'
        ][0];
        expect(all[versionId]!.Type).toBe('AWS::Lambda::Version');
        expect(all[versionId]!.Properties!.FunctionName).toEqual({ Ref: fnId });
        const update = (
          alias as {
            UpdatePolicy?: { CodeDeployLambdaAliasUpdate?: { DeploymentGroupName: { Ref: string } } };
          }
        ).UpdatePolicy?.CodeDeployLambdaAliasUpdate;
        expect(update, fnId).toBeDefined();
        expect(all[update!.DeploymentGroupName.Ref]!.Type).toBe('AWS::CodeDeploy::DeploymentGroup');
      }
    }
  });

  it('shifts 10 % for 5 minutes, and rolls back when the function errs or throttles or the API answers 5xx', () => {
    for (const template of [dev, prod]) {
      const all = resources(template);
      const alarmOf = (ref: { Ref: string }) => all[ref.Ref]!.Properties! as Record<string, unknown>;
      for (const [, alias] of ofType(template, 'AWS::Lambda::Alias')) {
        const groupId = (
          alias as unknown as {
            UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: string } } };
          }
        ).UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref;
        const group = all[groupId]!.Properties!;
        expect(group.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
        expect(group.AutoRollbackConfiguration).toEqual({
          Enabled: true,
          Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
        });
        const alarms = (
          group.AlarmConfiguration as { Enabled: boolean; Alarms: { Name: { Ref: string } }[] }
        ).Alarms.map((a) => alarmOf(a.Name));
        expect(alarms).toHaveLength(3);
        const fnId = (alias.Properties!.FunctionName as { Ref: string }).Ref;
        const ofFunction = (metric: string) =>
          alarms.filter(
            (a) => a.MetricName === metric && JSON.stringify(a.Dimensions).includes(`{"Ref":"${fnId}"}`),
          );
        expect(ofFunction('Errors'), fnId).toHaveLength(1);
        expect(ofFunction('Throttles'), fnId).toHaveLength(1);
        expect(alarms.filter((a) => a.AlarmDescription === 'API answers 5xx')).toHaveLength(1);
      }
    }
  });

  it('lets nothing invoke a function but through its live alias', () => {
    const all = resources(dev);
    const aliasIds = new Set(ofType(dev, 'AWS::Lambda::Alias').map(([id]) => id));
    const functionIds = new Set(ofType(dev, 'AWS::Lambda::Function').map(([id]) => id));
    const isAlias = (v: unknown) => aliasIds.has((v as { Ref?: string }).Ref ?? '');
    for (const [id, p] of ofType(dev, 'AWS::Lambda::Permission')) {
      // CDK's own custom resources (bucket deployments) keep their functions; ours are all aliased.
      const target = p.Properties!.FunctionName as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      if (target['Fn::GetAtt'] && !functionIds.has(target['Fn::GetAtt'][0])) continue;
      expect(isAlias(target), id).toBe(true);
    }
    for (const [id, m] of ofType(dev, 'AWS::Lambda::EventSourceMapping')) {
      const aliasRef = JSON.stringify(m.Properties!.FunctionName).match(/"Ref":"(\w+)"/)![1]!;
      const fnId = render(all[aliasRef]!.Properties!.FunctionName).slice(1, -1);
      expect(m.Properties!.FunctionName, id).toEqual(liveAliasName(dev, fnId));
    }
    for (const [id, rule] of ofType(dev, 'AWS::Events::Rule')) {
      for (const t of rule.Properties!.Targets as { Arn: unknown }[]) expect(isAlias(t.Arn), id).toBe(true);
    }
    for (const [id, s] of ofType(dev, 'AWS::SNS::Subscription').filter(
      ([, s]) => s.Properties!.Protocol === 'lambda',
    ))
      expect(isAlias(s.Properties!.Endpoint), id).toBe(true);
    for (const [id, m] of ofType(dev, 'AWS::ApiGateway::Method')) {
      const uri = render((m.Properties!.Integration as { Uri: unknown }).Uri);
      expect(uri, id).toMatch(new RegExp(`:function:Esign-dev-[\\w-]+:${LIVE_ALIAS}/invocations$`));
    }
    for (const [id, a] of ofType(dev, 'AWS::ApiGateway::Authorizer')) {
      const ref = JSON.stringify(a.Properties!.AuthorizerUri).match(/"Ref":"(\w+Function\w*)"/)?.[1];
      expect(aliasIds.has(ref ?? ''), id).toBe(true);
    }
    // The qualifier is cut from the alias's ARN (its 8th part, the alias name).
    for (const [id, c] of ofType(dev, 'AWS::Lambda::EventInvokeConfig')) {
      const qualifier = c.Properties!.Qualifier as {
        'Fn::Select': [number, { 'Fn::Split': [string, unknown] }];
      };
      expect(qualifier['Fn::Select'][0], id).toBe(7);
      expect(isAlias(qualifier['Fn::Select'][1]['Fn::Split'][1]), id).toBe(true);
    }
  });

  it('takes a stage deployment style from context, and refuses an unknown one', () => {
    expect(stageConfig('prod').deployment).toBe('canary-10-percent-5-minutes');
    const styled = (style: string) => stageConfig('dev', (k) => (k === 'deployment' ? style : undefined));
    expect(styled('all-at-once').deployment).toBe('all-at-once');
    expect(() => styled('yolo')).toThrow(/deployment.*canary-10-percent-5-minutes/);
    expect(DEPLOYMENT_STYLES.map((s) => DEPLOYMENT_CONFIG_OF[s].deploymentConfigName)).toEqual([
      'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      'CodeDeployDefault.LambdaLinear10PercentEvery1Minute',
      'CodeDeployDefault.LambdaAllAtOnce',
    ]);
  });
});
