import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '#infra/api-routes';
import { LAMBDA_ENTRIES, REPO_ROOT } from '#infra/bundling';
import { EsignStack } from '#infra/stack';
import { stageConfig } from '#infra/stage-config';

// The document templates Lambda in the synthesized stack: its route and exactly its grants.

type TProps = Record<string, unknown>;
interface TStatement {
  Action: string | string[];
  Resource?: unknown;
}

const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

let resources: Record<string, { Type: string; Properties?: TProps }>;
let fnId: string;

beforeAll(() => {
  // Routes and grants only: the functions' code need not be bundled (as in template-*.test.ts).
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new EsignStack(app, 'Esign-dev', { config: stageConfig('dev') });
  resources = (Template.fromStack(stack).toJSON() as { Resources: typeof resources }).Resources;
  fnId = Object.keys(resources).find(
    (id) =>
      resources[id]!.Type === 'AWS::Lambda::Function' &&
      resources[id]!.Properties!.FunctionName === 'Esign-dev-templates',
  )!;
}, 120_000);

function statements(): TStatement[] {
  const role = (resources[fnId]!.Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties!.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap((r) => (r.Properties!.PolicyDocument as { Statement: TStatement[] }).Statement);
}
const actions = () => statements().flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('the templates function', () => {
  it('is a Lambda of its own serving /api/v2/templates', () => {
    expect(LAMBDA_ENTRIES.templates).toBe('functions/templates/handler.ts');
    expect(API_ROUTES).toContainEqual({ resource: 'templates', fn: 'templates' });
    expect(fnId).toBeDefined();
  });

  it('reads and writes the table and the bucket (template PDFs), never deleting an object', () => {
    expect(actions()).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 's3:PutObject']),
    );
    expect(actions().some((a) => a.startsWith('s3:GetObject'))).toBe(true);
    expect(actions().filter((a) => a.startsWith('s3:Delete'))).toEqual([]);
  });

  it('sends to the webhook deliveries queue only (doc_template_* events), with its URL', () => {
    const queueId = Object.keys(resources).find(
      (id) =>
        resources[id]!.Type === 'AWS::SQS::Queue' &&
        resources[id]!.Properties!.QueueName === 'esign-dev-webhook-deliveries',
    )!;
    const sends = statements().filter((s) =>
      (Array.isArray(s.Action) ? s.Action : [s.Action]).includes('sqs:SendMessage'),
    );
    expect(sends.map((s) => JSON.stringify(s.Resource))).toEqual([
      JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }),
    ]);
    const env = (resources[fnId]!.Properties!.Environment as { Variables: TProps }).Variables;
    expect(env.WEBHOOK_QUEUE_URL).toEqual({ Ref: queueId });
    expect(env).not.toHaveProperty('NOTIFICATIONS_QUEUE_URL');
    expect(env).not.toHaveProperty('DOCUMENTS_QUEUE_URL');
  });

  it('knows the public base URL (the distribution), for preparation session links (/prepare/<token>)', () => {
    const env = (resources[fnId]!.Properties!.Environment as { Variables: TProps }).Variables;
    expect(JSON.stringify(env.PUBLIC_BASE_URL)).toMatch(/"Fn::GetAtt":\["Edge\w+","DomainName"\]/);
  });
});
