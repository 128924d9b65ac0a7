// One wiring: what sets each worker off on AWS (the template's event source mappings and
// schedule rules) is what infra/workers.ts declares, which the local runtime wires from too
// (infra/local/workers.ts). Compared both ways, so neither side can add or change one alone.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '#infra/queues';
import { CONSUMERS, SCHEDULES } from '#infra/workers';
import { resources, SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;

beforeAll(() => {
  ({ dev } = synthStages());
}, SYNTH_TIMEOUT_MS);

/** The function (its name in infra/bundling.ts) behind a live alias's logical id. */
function fnOfAlias(template: Template, aliasId: string): string {
  const all = resources(template);
  const fnId = (all[aliasId]!.Properties!.FunctionName as { Ref: string }).Ref;
  return String(all[fnId]!.Properties!.FunctionName).replace(/^Esign-dev-/, '');
}

/** The alias id inside `<function name>:live`, as an event source mapping names it. */
function aliasIdIn(value: unknown): string {
  const ref = JSON.stringify(value).match(/\{"Ref":"([^"]+)"\}/);
  expect(ref, JSON.stringify(value)).not.toBeNull();
  return ref![1]!;
}

describe('the workers are wired as infra/workers.ts declares, on AWS as locally', () => {
  it('has one event source per declared consumer, with its queue, function and batch size', () => {
    const all = resources(dev);
    const deployed = Object.values(all)
      .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')
      .map((r) => {
        const [queueId] = (r.Properties!.EventSourceArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
        const queue = String(all[queueId]!.Properties!.QueueName).replace(/^esign-dev-/, '');
        const fn = fnOfAlias(dev, aliasIdIn(r.Properties!.FunctionName));
        return `${queue} -> ${fn} x${r.Properties!.BatchSize}`;
      });
    const declared = Object.entries(CONSUMERS).map(
      ([queue, c]) => `${QUEUES[queue as keyof typeof QUEUES].name} -> ${c.fn} x${c.batchSize}`,
    );
    expect(deployed.sort()).toEqual(declared.sort());
  });

  it('has one schedule rule per declared schedule, at its rate', () => {
    const deployed = Object.values(resources(dev))
      .filter((r) => r.Type === 'AWS::Events::Rule' && r.Properties!.ScheduleExpression)
      .flatMap((r) =>
        (r.Properties!.Targets as { Arn: unknown }[]).map(
          (t) => `${fnOfAlias(dev, aliasIdIn(t.Arn))} ${r.Properties!.ScheduleExpression}`,
        ),
      );
    const rate = (m: number) => (m === 1 ? 'rate(1 minute)' : `rate(${m} minutes)`);
    const declared = Object.entries(SCHEDULES).map(([fn, s]) => `${fn} ${rate(s.everyMinutes)}`);
    expect(deployed.sort()).toEqual(declared.sort());
  });
});
