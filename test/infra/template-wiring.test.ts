// One wiring: what sets each worker off on AWS (the template's event source mappings and
// schedule rules) is what infra/workers.ts declares, which the local runtime wires from too
// (infra/local/workers.ts). Compared both ways, so neither side can add or change one alone.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TLambdaName } from '#infra/bundling';
import { CONFIG_KEYS, FUNCTION_CONFIG, type TConfigPart } from '#infra/function-config';
import { configFor } from '#infra/local/function-config';
import { localConfig } from '#infra/local/local-config';
import type { TStandIns } from '#infra/local/stand-ins';
import type { LocalUsagePlan } from '#infra/local/usage-plan';
import { QUEUES } from '#infra/queues';
import { stageConfig } from '#infra/stage-config';
import { CONSUMERS, SCHEDULES, STREAM_CONSUMERS } from '#infra/workers';
import { configFromEnv, type TConfig } from '#shared/config';
import { resources, SYNTH_TIMEOUT_MS, synthStages } from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
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

/** An event source reading the table's stream (a queue's names a queue). */
const isStreamSource = (r: { Type: string; Properties?: Record<string, unknown> }) =>
  r.Type === 'AWS::Lambda::EventSourceMapping' &&
  JSON.stringify(r.Properties?.EventSourceArn ?? '').includes('StreamArn');
describe('the workers are wired as infra/workers.ts declares, on AWS as locally', () => {
  it('has one event source per declared consumer, with its queue, function and batch size', () => {
    const all = resources(dev);
    const deployed = Object.values(all)
      .filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping' && !isStreamSource(r))
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

  it('feeds each declared stream consumer from the table stream, with its batch size and filter', () => {
    const deployed = Object.values(resources(dev))
      .filter(isStreamSource)
      .map((r) => ({
        fn: fnOfAlias(dev, aliasIdIn(r.Properties!.FunctionName)),
        batchSize: r.Properties!.BatchSize,
        filter: JSON.parse(
          (r.Properties!.FilterCriteria as { Filters: { Pattern: string }[] }).Filters[0]!.Pattern,
        ),
        reportsFailures: r.Properties!.FunctionResponseTypes,
        onFailure: Boolean((r.Properties!.DestinationConfig as { OnFailure?: unknown })?.OnFailure),
      }));
    const declared = Object.entries(STREAM_CONSUMERS).map(([fn, c]) => ({
      fn,
      batchSize: c.batchSize,
      filter: c.filter,
      reportsFailures: ['ReportBatchItemFailures'],
      onFailure: true,
    }));
    expect(deployed).toEqual(declared);
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

/** The parts of a configuration that only some functions get (infra/function-config.ts). */
function partsOf(config: TConfig): TConfigPart[] {
  const keys = CONFIG_KEYS.filter((p) => config[p] !== undefined && config[p] !== '');
  return [...keys, ...Object.keys(config.queues ?? {}).map((q) => `queues.${q}` as TConfigPart)].sort();
}

/**
 * Not in the local functions' configuration, as the stand-in of API Gateway does their work: it
 * keeps the authorizer's answers itself (authorizerTtlMs, of the same stage setting), and with no
 * CloudFront in front of it the caller's address is the connection's.
 */
const DONE_BY_THE_GATEWAY: TConfigPart[] = ['apiKeyCacheSeconds', 'viewerAddressHeader'];

/** Set by Lambda itself, or read by the entry (lambda.ts) and the runtime rather than configFromEnv. */
const RUNTIME_VARS = ['NODE_OPTIONS', 'POWERTOOLS_SERVICE_NAME', 'POWERTOOLS_METRICS_NAMESPACE'];
/** Read by configFromEnv, never set by the stack: Lambda's own region, the stand-ins' endpoints, test knobs. */
const NOT_SET_BY_THE_STACK = [
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'DYNAMODB_ENDPOINT',
  'S3_ENDPOINT',
  'SQS_ENDPOINT',
  'SES_ENDPOINT',
  'SNS_ENDPOINT',
  'APIGATEWAY_ENDPOINT',
  'KMS_ENDPOINT',
  'WEBHOOK_RETRY_SCALE',
];

/** Each function's environment on AWS, by its name in infra/bundling.ts; references as placeholders. */
function environments(template: Template, stack: string): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.values(resources(template))
      .filter(
        (r) =>
          r.Type === 'AWS::Lambda::Function' && String(r.Properties!.FunctionName).startsWith(`${stack}-`),
      )
      .map((r) => {
        const vars = (r.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        const env = Object.fromEntries(
          Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? v : `resolved-${k}`]),
        );
        return [String(r.Properties!.FunctionName).slice(stack.length + 1), env];
      }),
  );
}

/** The local runtime's configuration, as runtime.ts builds it once its stand-ins and queues are up. */
function runtimeConfig(): TConfig {
  const at = { endpoint: 'http://127.0.0.1:1', url: 'http://127.0.0.1:1/tsa' };
  const standIns = { dynamo: at, s3: at, sqs: at, mailbox: at, control: at, kms: at, tsa: at };
  const plan = { id: 'local-usage-plan' } as LocalUsagePlan;
  const where = { dataDir: '/nonexistent', memory: true };
  const config = localConfig(standIns as unknown as TStandIns, plan, stageConfig('dev'), where, {});
  config.queues = Object.fromEntries(Object.keys(QUEUES).map((q) => [q, `http://127.0.0.1:1/${q}`]));
  config.publicBaseUrl = 'http://127.0.0.1:3000';
  return config;
}

describe("each function's configuration is what infra/function-config.ts declares, on AWS as locally", () => {
  it('gives each function on AWS exactly the declared parts, and the same locally', () => {
    const local = runtimeConfig();
    for (const [template, stack, stamped] of [
      [dev, 'Esign-dev', false],
      [prod, 'Esign-prod', true],
    ] as const) {
      const deployed = environments(template, stack);
      expect(Object.keys(deployed).sort()).toEqual(Object.keys(FUNCTION_CONFIG).sort());
      for (const [fn, declared] of Object.entries(FUNCTION_CONFIG)) {
        const config = configFromEnv(deployed[fn]!);
        // Timestamps where the stage names authorities: prod here, not dev.
        const onAws = declared.filter((p) => stamped || p !== 'timestamps');
        expect([fn, partsOf(config)]).toEqual([fn, [...onAws].sort()]);
        expect([fn, config.bucketName !== '', config.documentsKeyId !== undefined]).toEqual([fn, true, true]);
        const locally = declared.filter((p) => !DONE_BY_THE_GATEWAY.includes(p));
        expect([fn, partsOf(configFor(fn as TLambdaName, local))]).toEqual([fn, locally.sort()]);
      }
    }
  });

  it('sets no variable that nothing reads, and each one read is set by the stack or local only', () => {
    const read = new Set<string>();
    const recording = new Proxy({} as Record<string, string>, {
      get: (_, name) => {
        read.add(String(name));
        return 'x';
      },
    });
    configFromEnv(recording);
    const set = new Set(
      [
        ...Object.values(environments(dev, 'Esign-dev')),
        ...Object.values(environments(prod, 'Esign-prod')),
      ].flatMap((env) => Object.keys(env)),
    );
    for (const name of set)
      expect([name, read.has(name) || RUNTIME_VARS.includes(name)]).toEqual([name, true]);
    for (const name of read)
      expect([name, set.has(name) || NOT_SET_BY_THE_STACK.includes(name)]).toEqual([name, true]);
  });
});
