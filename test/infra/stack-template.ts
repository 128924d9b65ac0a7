// The stack's templates as the template tests read them (test/infra/template-*.test.ts), and the
// helpers they share to find resources and read grants in them.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { expect } from 'vitest';
import { REPO_ROOT } from '#infra/bundling';
import { LIVE_ALIAS } from '#infra/constructs/api-function';
import { EsignStack } from '#infra/stack';
import { stageConfig } from '#infra/stage-config';

export interface TResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
}

export interface TStatement {
  Effect: string;
  Action: string | string[];
  Resource?: unknown;
  Condition?: unknown;
}

// The feature flags of cdk.json change what constructs emit: test what `cdk synth` deploys.
export const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

export const TSA_URLS = ['https://timestamp.example.com/tsa', 'https://tsa.example.org/'];

/**
 * The dev and prod stacks and their templates; each test file calls this once, in its beforeAll.
 * Made once per module instance, so test files run without isolation would share them (no test
 * changes a stack or a template). Template.fromStack also refuses a template with a dependency
 * cycle, which synth alone lets through and CloudFormation rejects at deploy time (see
 * ApiFunction.arnByName).
 */
export function synthStages(): TStages {
  synthesized ??= synthesize();
  return synthesized;
}

interface TStages {
  dev: Template;
  prod: Template;
  devStack: EsignStack;
  prodStack: EsignStack;
}

let synthesized: TStages | undefined;

/**
 * How long a file's beforeAll may wait for synthStages: two stacks, each with its distribution,
 * bucket deployments and cdk-nag, take under a minute alone but several on a 2-core machine busy
 * with the other test projects.
 */
export const SYNTH_TIMEOUT_MS = 300_000;

function synthesize(): TStages {
  // The functions' code is not bundled here (an empty bundling-stacks list): these tests read the
  // template, and test/e2e/signing-lambda-assets.test.ts builds the bundles themselves.
  // One app per stack: Template.fromStack synthesizes the stack's whole app each time.
  const app = () => new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const devStack = new EsignStack(app(), 'Esign-dev', { config: stageConfig('dev') });
  // prod as an operator would run it: seals stamped by two public timestamp authorities.
  const prodStack = new EsignStack(app(), 'Esign-prod', {
    config: stageConfig('prod', (key) => (key === 'tsaUrls' ? TSA_URLS.join(',') : undefined)),
  });
  return { dev: Template.fromStack(devStack), prod: Template.fromStack(prodStack), devStack, prodStack };
}

export function resources(template: Template): Record<string, TResource> {
  return (template.toJSON() as { Resources: Record<string, TResource> }).Resources;
}

/** A function resource's environment variables, by its logical id. */
export function envVarsOf(template: Template, id: string): Record<string, unknown> {
  return (resources(template)[id]!.Properties!.Environment as { Variables: Record<string, unknown> })
    .Variables;
}

export function logicalIdOf(template: Template, type: string, props: Record<string, unknown>): string {
  const found = Object.keys(template.findResources(type, { Properties: props }));
  expect(found).toHaveLength(1);
  return found[0]!;
}

export function functionId(template: Template, stack: string, name: string): string {
  return logicalIdOf(template, 'AWS::Lambda::Function', { FunctionName: `${stack}-${name}` });
}

/** The function's live alias, which every caller invokes (infra/constructs/api-function.ts). */
export function liveAliasId(template: Template, fnId: string): string {
  return logicalIdOf(template, 'AWS::Lambda::Alias', { FunctionName: { Ref: fnId }, Name: LIVE_ALIAS });
}

/** A reference to the live alias's ARN, as permissions, rules and subscriptions name it. */
export function liveAlias(template: Template, fnId: string): { Ref: string } {
  return { Ref: liveAliasId(template, fnId) };
}

/** How an event source mapping names the live alias: `<function name>:live`, cut from its ARN. */
export function liveAliasName(template: Template, fnId: string): unknown {
  const arn = liveAlias(template, fnId);
  return { 'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', arn] }] }, `:${LIVE_ALIAS}`]] };
}

/** Every statement of the function's role: inline policies and attached AWS::IAM::Policy resources. */
export function roleStatements(template: Template, fnId: string): TStatement[] {
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
export function render(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const v = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]]; 'Fn::GetAtt'?: [string, string] };
    if (v.Ref) return `<${v.Ref}>`;
    if (v['Fn::GetAtt']) return `<${v['Fn::GetAtt'].join('.')}>`;
    if (v['Fn::Join']) return v['Fn::Join'][1].map(render).join(v['Fn::Join'][0]);
  }
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

export const actionsOf = (s: TStatement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/**
 * The functions that publish bundles' outboxes onto every queue: the relay (from the table's
 * stream) and the sweeper (what the relay left). The functions that change bundles only write
 * the outbox with the bundle, so they may send to none of those queues.
 */
export const PUBLISHERS: readonly string[] = ['outbox-sweeper', 'outbox-relay'];

/** Functions that change bundles, none of which publishes itself. */
export const BUNDLE_WRITERS: readonly string[] = [
  'packets',
  'bundles',
  'persons',
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
export function secretsReachable(secrets: Record<string, unknown>, stage: string, secretId: string) {
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

/**
 * A worker its queue feeds one message at a time, reporting batch item failures: the function's,
 * the queue's and the dead-letter queue's logical ids.
 */
export function oneJobAtATime(
  template: Template,
  stack: string,
  stage: string,
  fn: string,
  queueName: string,
) {
  const fnId = functionId(template, stack, fn);
  const queue = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-${queueName}` });
  const dlq = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-${queueName}-dlq` });
  template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: liveAliasName(template, fnId),
    EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
    BatchSize: 1,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
  return { fnId, queue, dlq };
}

/** Every acceptance recorded in the tree: rule id → reason, with where it was made. */
export function acceptances(root: IConstruct): { path: string; rule: string; reason: string }[] {
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
