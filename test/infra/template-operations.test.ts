// What an operator watches (infra/constructs/operations.ts): alarms on one topic and the dashboard.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '#infra/bundling';
import { ALARM_THRESHOLDS } from '#infra/constructs/operations';
import { EsignStack } from '#infra/stack';
import { stageConfig } from '#infra/stage-config';
import { cdkJson, functionId, logicalIdOf, SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;

beforeAll(() => {
  ({ dev } = synthStages());
}, SYNTH_TIMEOUT_MS);

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
