// The document worker's seal, keys and operator secrets (infra/constructs/evidence-and-keys.ts).
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, PUBLIC_ROUTES } from '#infra/api-routes';
import { lambdaEntries } from '#infra/bundling';
import { DOCUMENT_WORKER_MEMORY_MB } from '#infra/constructs/functions';
import { QUEUES } from '#infra/queues';
import { DOCUMENT_MAX_ATTEMPTS, FINAL_LEASE_SECONDS } from '#shared/domain/evidence/evidence-files';
import {
  actionsOf,
  envVarsOf,
  functionId,
  liveAlias,
  logicalIdOf,
  oneJobAtATime,
  PUBLISHERS,
  render,
  resources,
  roleStatements,
  SYNTH_TIMEOUT_MS,
  secretsReachable,
  synthStages,
  type TResource,
  type TStatement,
} from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
}, SYNTH_TIMEOUT_MS);

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
      // The seal identity, the seal chain, the Stripe keys, the distribution's origin header, and
      // with timestamp authorities (prod here) their credentials.
      expect(Object.keys(secrets)).toHaveLength(stage === 'prod' ? 5 : 4);
      const secretId = Object.keys(secrets).find(
        (id) => (secrets[id] as TResource).Properties?.Name === `esign-${stage}-seal-identity`,
      )!;
      const secret = secrets[secretId] as TResource;
      expect(secret.Properties).toMatchObject({ Name: `esign-${stage}-seal-identity` });
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
      expect(secret.Properties).not.toHaveProperty('SecretString');
      expect(secret.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');

      const fnId = functionId(template, stack, 'document-worker');
      const vars = envVarsOf(template, fnId);
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
        const env = envVarsOf(template, id);
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
      const vars = envVarsOf(template, fnId);
      expect(vars).toMatchObject({
        SEAL_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] },
        SEAL_NAME: `esign-${stage}-seal`,
        SEAL_CHAIN_SECRET_ID: { Ref: chainId },
      });
      // The documents keys' statements (the stack's, accounts' own by their tag) are
      // template-storage.test.ts's.
      const kms = roleStatements(template, fnId).filter(
        (st) =>
          actionsOf(st).some((a) => a.startsWith('kms:')) &&
          !String(JSON.stringify(st.Resource)).includes('DocumentsKey') &&
          !JSON.stringify(st).includes('aws:ResourceTag/'),
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
      const vars = envVarsOf(template, fnId);
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

  it('lets the worker read and write the table and the bucket (never delete objects), and send nothing', () => {
    const fnId = functionId(dev, 'Esign-dev', 'document-worker');
    const statements = roleStatements(dev, fnId);
    const actions = statements.flatMap(actionsOf);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:Query',
        's3:GetObject',
        's3:PutObject',
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
      ]),
    );
    // What it changes in a bundle is published by the outbox relay, from the table's stream.
    expect(actions).not.toContain('sqs:SendMessage');
    expect(actions.filter((a) => a.startsWith('s3:')).sort()).toEqual([
      's3:AbortMultipartUpload',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
    ]);
    // Of KMS, only signing seals (their own test above) and the documents key's data keys.
    expect(
      actions.filter((a) => /^kms:/.test(a) && !['kms:Decrypt', 'kms:GenerateDataKey'].includes(a)).sort(),
    ).toEqual(['kms:GetPublicKey', 'kms:GetPublicKey', 'kms:Sign', 'kms:Sign']);
    expect(actions.filter((a) => /^(apigateway|ses|sns):/.test(a))).toEqual([]);
  });

  it('gives only the publishers and the account function the right to send to the document jobs', () => {
    const queue = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-document-jobs' });
    for (const { name } of lambdaEntries()) {
      const id = functionId(dev, 'Esign-dev', name);
      const vars = envVarsOf(dev, id);
      const sends = JSON.stringify(
        roleStatements(dev, id)
          .filter((st) => actionsOf(st).includes('sqs:SendMessage'))
          .map((st) => st.Resource),
      );
      // The account function queues accounts' exports there, and nothing else of a bundle's.
      if (PUBLISHERS.includes(name) || name === 'account') {
        expect(vars.DOCUMENTS_QUEUE_URL, name).toEqual({ Ref: queue });
        expect(sends, name).toContain(queue);
      } else if (name === 'document-worker') {
        // Its own queue: it puts failed jobs off (ChangeMessageVisibility), never sends to it.
        expect(vars.DOCUMENTS_QUEUE_URL, name).toEqual({ Ref: queue });
        expect(sends, name).not.toContain(queue);
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
            FunctionName: liveAlias(dev, fnId),
            Principal: 'apigateway.amazonaws.com',
          },
        }),
      ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
      expect(sources.sort(), name).toEqual([...paths].sort());
    }
  });
});
