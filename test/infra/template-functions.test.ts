// The Lambdas and what each may touch (infra/constructs/functions.ts, api-function.ts).

import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, PUBLIC_ROUTES } from '#infra/api-routes';
import { lambdaEntries } from '#infra/bundling';
import { VIEWER_ADDRESS_HEADER } from '#infra/front-door';
import { DOCUMENTS_KEY_TAG } from '#shared/adapters/kms/documents-keys';
import { METRICS_NAMESPACE } from '#shared/adapters/telemetry/metrics';
import {
  KEY_DESTRUCTION_MARGIN_SECONDS,
  KEY_DESTRUCTION_WAIT_SECONDS,
} from '#shared/domain/bundles/account-documents-key';
import {
  actionsOf,
  BUNDLE_WRITERS,
  envVarsOf,
  functionId,
  liveAlias,
  logicalIdOf,
  PUBLISHERS,
  render,
  resources,
  roleStatements,
  SYNTH_TIMEOUT_MS,
  synthStages,
  type TResource,
  type TStatement,
} from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
}, SYNTH_TIMEOUT_MS);

/** The one function fed by the table's stream (infra/workers.ts, STREAM_CONSUMERS). */
const STREAM_READER = 'outbox-relay';
describe('functions', () => {
  it.each(['authorizer', 'persons', 'account'])(
    '%s runs on nodejs22.x arm64 with its environment',
    (name) => {
      const id = functionId(dev, 'Esign-dev', name);
      const props = resources(dev)[id]!.Properties!;
      expect(props).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
      const vars = (props.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars).toMatchObject({
        STAGE: 'dev',
        LOG_LEVEL: 'debug',
        TABLE_NAME: { Ref: expect.any(String) },
        BUCKET_NAME: { Ref: expect.any(String) },
      });
      if (name === 'authorizer') expect(vars).not.toHaveProperty('USAGE_PLAN_ID');
      else expect(vars.USAGE_PLAN_ID).toEqual({ Ref: logicalIdOf(dev, 'AWS::ApiGateway::UsagePlan', {}) });
    },
  );

  it('logs to its own log group with the stage retention', () => {
    for (const [template, stack, days] of [
      [dev, 'Esign-dev', 7],
      [prod, 'Esign-prod', 365],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const props = resources(template)[functionId(template, stack, name)]!.Properties!;
        const logGroup = (props.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        expect(resources(template)[logGroup]!.Properties!.RetentionInDays).toBe(days);
      }
    }
  });

  it('traces every invocation with X-Ray and names its service and metrics namespace for Powertools', () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const id = functionId(template, stack, name);
        const props = resources(template)[id]!.Properties!;
        expect(props.TracingConfig, name).toEqual({ Mode: 'Active' });
        expect((props.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
          POWERTOOLS_SERVICE_NAME: name,
          POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        });
        // Active tracing needs the role to send segments; CDK adds the grant with the setting.
        const actions = roleStatements(template, id).flatMap(actionsOf);
        expect(actions, name).toEqual(
          expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
        );
      }
    }
  });

  it("grants on every resource only what X-Ray's tracing needs", () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      for (const { name } of lambdaEntries()) {
        const anywhere = roleStatements(template, functionId(template, stack, name)).filter(
          (st) => st.Resource === '*',
        );
        expect(anywhere.flatMap(actionsOf).sort(), name).toEqual([
          // Lambda's stream event source lists the table's streams, an action on no resource.
          ...(name === STREAM_READER ? ['dynamodb:ListStreams'] : []),
          'xray:PutTelemetryRecords',
          'xray:PutTraceSegments',
        ]);
      }
    }
  });

  it('traces API requests from the stage on', () => {
    for (const template of [dev, prod]) {
      template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
      expect(Object.keys(template.findResources('AWS::ApiGateway::Stage'))).toHaveLength(1);
    }
  });

  it('reads only what each needs from the table', () => {
    const writes = (statements: TStatement[]) => statements.flatMap(actionsOf).includes('dynamodb:PutItem');
    const reads = (statements: TStatement[]) => statements.flatMap(actionsOf).includes('dynamodb:GetItem');
    const authorizer = roleStatements(dev, functionId(dev, 'Esign-dev', 'authorizer'));
    const persons = roleStatements(dev, functionId(dev, 'Esign-dev', 'persons'));
    const account = roleStatements(dev, functionId(dev, 'Esign-dev', 'account'));
    expect([reads(authorizer), writes(authorizer)]).toEqual([true, false]);
    // It reads an API key's or a console session's item by its key: no query, no batch.
    expect(
      authorizer.flatMap(actionsOf).filter((a) => a.startsWith('dynamodb:') && a !== 'dynamodb:UpdateItem'),
    ).toEqual(['dynamodb:GetItem']);
    // Its one write: renewing console sessions, on their items alone.
    const updates = authorizer.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'));
    expect(updates.map((s) => [actionsOf(s), (s as { Condition?: unknown }).Condition])).toEqual([
      [
        ['dynamodb:UpdateItem'],
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CONSOLESESSION#*'] } },
      ],
    ]);
    expect([reads(persons), writes(persons)]).toEqual([true, true]);
    // Users change their account's keys, brands and defaults through it.
    expect([reads(account), writes(account)]).toEqual([true, true]);
  });

  it('grants no function a table scan, transaction check, stream read, or object tag, lock or version', () => {
    // The outbox relay alone reads the table's stream, its table's stream alone.
    const streamReads = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
    const relay = roleStatements(dev, functionId(dev, 'Esign-dev', STREAM_READER));
    const reading = relay.filter((st) => actionsOf(st).some((a) => streamReads.includes(a)));
    expect(reading.flatMap(actionsOf).sort()).toEqual(streamReads);
    expect(JSON.stringify(reading.map((st) => st.Resource))).toContain('StreamArn');
    // What no function's code makes (test-artifacts/iam-unused-grants.json after npm test), so a
    // stolen role cannot page through every account's items or change how long a file is kept.
    const never = [
      'dynamodb:Scan',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DescribeTable',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      's3:GetBucket*',
      's3:GetObject*',
      's3:List*',
      's3:PutObjectTagging',
      's3:PutObjectVersionTagging',
      's3:PutObjectLegalHold',
      's3:PutObjectRetention',
      's3:Abort*',
    ];
    for (const { name } of lambdaEntries()) {
      const actions = roleStatements(dev, functionId(dev, 'Esign-dev', name)).flatMap(actionsOf);
      expect(
        actions.filter((a) => never.includes(a) && !(name === STREAM_READER && streamReads.includes(a))),
        name,
      ).toEqual([]);
    }
  });

  it("ends every function well within the wait of a documents key's destruction", () => {
    // The destruction reads the bundles that long after marking the account: every request that
    // read the account before the mark must have ended by then (account-documents-key.ts).
    for (const { name } of lambdaEntries()) {
      const seconds = Number(resources(prod)[functionId(prod, 'Esign-prod', name)]!.Properties!.Timeout ?? 3);
      expect(seconds + KEY_DESTRUCTION_MARGIN_SECONDS, name).toBeLessThanOrEqual(
        KEY_DESTRUCTION_WAIT_SECONDS,
      );
    }
    expect(lambdaEntries().map((e) => e.name)).toEqual(
      expect.arrayContaining(['bundles', 'bulk-worker', 'document-worker', 'public-pages', 'templates']),
    );
  });

  it('lets only the bundles function near the documents bucket, to read and add, never delete', () => {
    const s3 = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name))
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('s3:'));
    expect(s3('bundles')).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject']));
    expect(s3('bundles').filter((a) => a.startsWith('s3:Delete'))).toEqual([]);
    for (const name of ['authorizer', 'persons']) expect(s3(name), name).toEqual([]);
    // The account function reads export archives alone ("the account's settings" below).
    expect(s3('account').filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
    const bundles = roleStatements(dev, functionId(dev, 'Esign-dev', 'bundles'));
    expect(bundles.flatMap(actionsOf)).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query']),
    );
  });

  it("lets the scheduler alone delete, every version of a bundle's or a batch's own files and nothing else", () => {
    const bucketId = logicalIdOf(dev, 'AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' } });
    for (const { name } of lambdaEntries()) {
      const deletes = roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((st) =>
        actionsOf(st).some((a) => /^s3:(Delete|\*)/.test(a) || a === 's3:ListBucketVersions'),
      );
      if (name !== 'scheduler') {
        expect(deletes, name).toEqual([]);
        continue;
      }
      expect(deletes.map(actionsOf)).toEqual([['s3:ListBucketVersions'], ['s3:DeleteObjectVersion']]);
      const [list, del] = deletes as { Resource: unknown; Condition?: unknown }[];
      const patterns = [
        'accounts/*/bundles/*/originals/*',
        'accounts/*/bundles/*/interim/*',
        'interim/*/*',
        'accounts/*/bundles/*/final/*',
        'accounts/*/bundles/*/coe/*',
        'final/*/*',
        'coe/*/*',
        'accounts/*/bundles/*/signing/*',
        'signing/*/*',
        'accounts/*/bulk/*/*',
      ];
      expect(list!.Condition).toEqual({ StringLike: { 's3:prefix': patterns } });
      expect(JSON.stringify(list!.Resource)).toContain(bucketId);
      // Each an object ARN of the documents bucket: `<bucket ARN>/<pattern>`, in any order.
      const keys = (del!.Resource as { 'Fn::Join': [string, [{ 'Fn::GetAtt': string[] }, string]] }[]).map(
        (r) => [r['Fn::Join'][1][0]['Fn::GetAtt'][0], r['Fn::Join'][1][1]],
      );
      expect(keys.map(([b]) => b)).toEqual(patterns.map(() => bucketId));
      expect(keys.map(([, k]) => k).sort()).toEqual(patterns.map((k) => `/${k}`).sort());
    }
  });

  it('gives only the outbox publishers the notifications queue to send to, with a dead-letter queue behind it', () => {
    const queues = Object.values(dev.findResources('AWS::SQS::Queue')).map(
      (q) => (q as TResource).Properties!,
    );
    const main = queues.find((q) => q.QueueName === 'esign-dev-notifications');
    expect(main).toBeDefined();
    expect(queues.some((q) => q.QueueName === 'esign-dev-notifications-dlq')).toBe(true);
    expect((main!.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBeGreaterThan(0);
    const actions = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name)).flatMap(actionsOf);
    for (const name of PUBLISHERS)
      expect(actions(name), name).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    // Packets reads the bucket only, to hand out a certificate's presigned link.
    expect(actions('packets').filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
    const notificationsId = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-notifications' });
    for (const { name } of lambdaEntries()) {
      if (PUBLISHERS.includes(name)) continue;
      // It consumes the queue, never sends to it (see "notifications worker").
      if (name === 'notifications-worker') continue;
      // It queues console sign-in mail (see "console sign-in").
      if (name === 'console') continue;
      const sqs = roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((st) =>
        actionsOf(st).some((a) => a.startsWith('sqs:')),
      );
      expect(JSON.stringify(sqs.map((st) => st.Resource)), name).not.toContain(notificationsId);
    }
    const env = envVarsOf(dev, functionId(dev, 'Esign-dev', 'outbox-relay'));
    expect(env.NOTIFICATIONS_QUEUE_URL).toEqual({ Ref: notificationsId });
    // A function that changes bundles writes its outbox and is told of no queue it may not send to.
    for (const name of BUNDLE_WRITERS) {
      expect(envVarsOf(dev, functionId(dev, 'Esign-dev', name)), name).not.toHaveProperty(
        'NOTIFICATIONS_QUEUE_URL',
      );
    }
  });

  it('seals secrets with a rotating KMS key only the webhooks and console functions may use', () => {
    for (const [template, stack, stage, policy] of [
      [dev, 'Esign-dev', 'dev', 'Delete'],
      [prod, 'Esign-prod', 'prod', 'Retain'],
    ] as const) {
      // The webhook secrets key, the seal key (its own test below) and the documents key
      // (template-storage.test.ts), which only roles the documents bucket grants reach may use.
      const keys = template.findResources('AWS::KMS::Key');
      expect(Object.keys(keys)).toHaveLength(3);
      const documentsKey = Object.keys(keys).find((id) =>
        String(keys[id]!.Properties?.Description).startsWith('Documents'),
      )!;
      const keyId = Object.keys(keys).find(
        (id) => keys[id]!.Properties?.KeyUsage === undefined && id !== documentsKey,
      )!;
      // The documents key's grants and those of accounts' own keys (found by their tag).
      const isDocuments = (st: TStatement) =>
        String(JSON.stringify(st.Resource)).includes(documentsKey) ||
        JSON.stringify(st).includes(`aws:ResourceTag/${DOCUMENTS_KEY_TAG}`);
      expect(keys[keyId]!.Properties).toMatchObject({ EnableKeyRotation: true });
      expect(keys[keyId]!.DeletionPolicy).toBe(policy);
      template.hasResourceProperties('AWS::KMS::Alias', {
        AliasName: `alias/esign-${stage}-webhook-secrets`,
        TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
      });

      // Webhooks seal and open the webhook secret; the console opens single sign-on client secrets.
      for (const name of ['webhooks', 'console']) {
        const id = functionId(template, stack, name);
        expect(envVarsOf(template, id).SECRETS_KEY_ID, name).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
        const kms = roleStatements(template, id).filter(
          (s) => actionsOf(s).some((a) => a.startsWith('kms:')) && !isDocuments(s),
        );
        expect(kms, name).toHaveLength(1);
        expect(actionsOf(kms[0]!).sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
        expect([kms[0]!.Resource].flat()).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
        expect((kms[0] as TStatement & { Condition?: unknown }).Condition).toEqual({
          Null: { 'kms:EncryptionContext:accountId': 'false' },
        });
      }

      for (const { name } of lambdaEntries()) {
        // The dispatcher signs every call, so it opens sealed secrets too (same statement shape);
        // the document worker signs seals with the seal key (its own test).
        if (['webhooks', 'console', 'webhook-dispatcher', 'document-worker'].includes(name)) continue;
        const id = functionId(template, stack, name);
        const actions = roleStatements(template, id)
          .filter((s) => !isDocuments(s))
          .flatMap(actionsOf);
        expect(
          actions.filter((a) => a.startsWith('kms:')),
          name,
        ).toEqual([]);
        const vars = envVarsOf(template, id);
        expect(vars, name).not.toHaveProperty('SECRETS_KEY_ID');
      }
    }
  });

  it('tells every endpoint function the public base URL (the distribution), which links are built on instead of Host, and where the caller’s address is', () => {
    for (const name of new Set([...API_ROUTES, ...PUBLIC_ROUTES].map((r) => r.fn))) {
      const vars = envVarsOf(dev, functionId(dev, 'Esign-dev', name));
      expect(render(vars.PUBLIC_BASE_URL), name).toMatch(/^https:\/\/<Edge\w+\.DomainName>$/);
      expect(vars.VIEWER_ADDRESS_HEADER, name).toBe(VIEWER_ADDRESS_HEADER);
    }
  });

  it('gives every keyed endpoint function GET on its usage plan (the rate limit headers), the signing function none', () => {
    const planId = logicalIdOf(dev, 'AWS::ApiGateway::UsagePlan', {});
    const plan = `arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<${planId}>`;
    const apiGatewayStatements = (name: string) =>
      roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('apigateway:')),
      );
    for (const name of new Set(API_ROUTES.map((r) => r.fn))) {
      // The account function also makes and deletes API keys (its own test below), and the
      // console's function usage keys (see "console sign-in"): their GET on the plan is the one here.
      const apigw = apiGatewayStatements(name).filter((s) => actionsOf(s).includes('apigateway:GET'));
      expect(apigw, name).toHaveLength(1);
      expect(actionsOf(apigw[0]!)).toEqual(['apigateway:GET']);
      expect([apigw[0]!.Resource].flat().map(render).sort()).toEqual([plan, `${plan}/usage`]);
    }
    expect(apiGatewayStatements('public-pages')).toEqual([]);
  });
});

describe("the account's settings", () => {
  it('may write the table and create or delete API keys of its usage plan, nothing more of API Gateway', () => {
    expect(API_ROUTES).toContainEqual({ resource: 'api-keys', fn: 'account' });
    const planId = logicalIdOf(dev, 'AWS::ApiGateway::UsagePlan', {});
    const plan = `arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<${planId}>`;
    const statements = roleStatements(dev, functionId(dev, 'Esign-dev', 'account'));
    const apigateway = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('apigateway:')));
    const granted = apigateway.map((s) => ({
      actions: actionsOf(s),
      on: [s.Resource].flat().map(render).sort(),
    }));
    expect(granted).toEqual([
      { actions: ['apigateway:GET'], on: [plan, `${plan}/usage`] },
      { actions: ['apigateway:POST'], on: [expect.stringMatching(/::\/apikeys$/), `${plan}/keys`] },
      { actions: ['apigateway:DELETE'], on: [expect.stringMatching(/::\/apikeys\/\*$/)] },
    ]);
    expect(statements.flatMap(actionsOf)).toContain('dynamodb:PutItem');
  });
});

describe("the account's export", () => {
  it('is queued on the document jobs alone, and its link reads exports/ of the bucket and nothing else', () => {
    const statements = roleStatements(dev, functionId(dev, 'Esign-dev', 'account'));
    const bucketId = logicalIdOf(dev, 'AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' } });
    const s3 = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
    expect(s3.flatMap(actionsOf).sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    // Listing only the exports/ prefix: a missing archive reads as missing, nothing else shows.
    expect(
      (s3.find((st) => actionsOf(st).includes('s3:ListBucket')) as { Condition?: unknown }).Condition,
    ).toEqual({
      StringLike: { 's3:prefix': 'exports/*' },
    });
    expect(s3.flatMap((st) => [st.Resource].flat().map(render)).sort()).toEqual([
      `<${bucketId}.Arn>`,
      `<${bucketId}.Arn>/exports/*`,
    ]);
    const jobsId = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-document-jobs' });
    const sqs = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqs.flatMap((st) => [st.Resource].flat().map(render))).toEqual([`<${jobsId}.Arn>`]);
    expect(envVarsOf(dev, functionId(dev, 'Esign-dev', 'account'))).toHaveProperty('DOCUMENTS_QUEUE_URL');
  });
  it('is uploaded by the document worker in parts: it may abort its upload and decrypt the part keys', () => {
    const statements = roleStatements(dev, functionId(dev, 'Esign-dev', 'document-worker'));
    const bucketId = logicalIdOf(dev, 'AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' } });
    const on = (action: string) =>
      statements
        .filter((st) => actionsOf(st).includes(action))
        .flatMap((st) => [st.Resource].flat().map(render));
    // CreateMultipartUpload, UploadPart and CompleteMultipartUpload are s3:PutObject; a failed
    // export aborts its upload, so the bucket keeps none of its parts.
    expect(on('s3:PutObject')).toContain(`<${bucketId}.Arn>/*`);
    expect(on('s3:AbortMultipartUpload')).toContain(`<${bucketId}.Arn>/*`);
    // No other function writes in parts, so no other may abort an upload.
    const aborting = lambdaEntries()
      .map(({ name }) => name)
      .filter((name) =>
        roleStatements(dev, functionId(dev, 'Esign-dev', name))
          .flatMap(actionsOf)
          .includes('s3:AbortMultipartUpload'),
      );
    expect(aborting).toEqual(['document-worker']);
    // Under SSE-KMS, S3 decrypts the upload's data key for each part: both ways, via S3 only.
    const kms = statements.filter((st) => actionsOf(st).includes('kms:GenerateDataKey'));
    expect(kms.length).toBeGreaterThan(0);
    for (const st of kms) {
      expect(actionsOf(st)).toContain('kms:Decrypt');
      expect(JSON.stringify(st.Condition)).toContain('kms:ViaService');
    }
  });
});

describe('envelope templates and portal smart links', () => {
  it('serves /api/v2/envelope-templates from its own function, which knows the public base URL', () => {
    expect(API_ROUTES).toContainEqual({ resource: 'envelope-templates', fn: 'envelope-templates' });
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'portal', fn: 'public-pages' });
    const fnId = functionId(dev, 'Esign-dev', 'envelope-templates');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: liveAlias(dev, fnId), Principal: 'apigateway.amazonaws.com' },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    expect(sources.sort()).toEqual(['dev/*/api/v2/envelope-templates', 'dev/*/api/v2/envelope-templates/*']);
    const vars = envVarsOf(dev, fnId);
    expect(vars).toHaveProperty('PUBLIC_BASE_URL');
    expect(vars).toHaveProperty('TABLE_NAME');
  });

  it('turns on the table TTL that ends the portal counters', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });
});

describe('MCP server for AI agents', () => {
  it('serves /mcp from its own function without the authorizer, which the function replaces by asking the API', () => {
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'mcp', fn: 'mcp' });
    const fnId = functionId(dev, 'Esign-dev', 'mcp');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: liveAlias(dev, fnId) },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    expect(sources.sort()).toEqual(['dev/*/mcp', 'dev/*/mcp/*']);
  });

  it('may reach nothing but its logs: its tools go through the public API like any client', () => {
    const actions = roleStatements(dev, functionId(dev, 'Esign-dev', 'mcp')).flatMap(actionsOf);
    const services = new Set(actions.map((a) => a.split(':')[0]));
    for (const service of ['dynamodb', 's3', 'sqs', 'kms', 'secretsmanager', 'apigateway', 'sns', 'ses']) {
      expect(services.has(service), service).toBe(false);
    }
  });
});

describe('console sign-in', () => {
  it('serves /console/api without the authorizer, and the admin API of people behind it', () => {
    expect(PUBLIC_ROUTES).toContainEqual({ resource: 'console/api', fn: 'console' });
    const fnId = functionId(dev, 'Esign-dev', 'console');
    const sources = Object.values(
      dev.findResources('AWS::Lambda::Permission', {
        Properties: { FunctionName: liveAlias(dev, fnId) },
      }),
    ).map((p) => render((p as TResource).Properties!.SourceArn).replace(/^.*:<\w+>\//, ''));
    const people = ['users', 'invitations', 'teams', 'security_log'].flatMap((r) => [
      `dev/*/api/v2/${r}`,
      `dev/*/api/v2/${r}/*`,
    ]);
    expect(sources.sort()).toEqual(['dev/*/console/api', 'dev/*/console/api/*', ...people].sort());
  });

  it('queues sign-in mail on the notifications queue for the worker to send after the answer', () => {
    const fnId = functionId(dev, 'Esign-dev', 'console');
    const notificationsId = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-notifications' });
    const sqs = roleStatements(dev, fnId).filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    expect(sqs.flatMap(actionsOf)).toContain('sqs:SendMessage');
    expect(JSON.stringify(sqs.map((st) => st.Resource))).toContain(notificationsId);
    expect(Object.keys(envVarsOf(dev, fnId))).toContain('NOTIFICATIONS_QUEUE_URL');
  });

  it('may mail from the one sender address and create (or drop) API keys in its usage plan, nothing else of API Gateway', () => {
    const statements = roleStatements(dev, functionId(dev, 'Esign-dev', 'console'));
    const ses = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
    expect(ses.flatMap(actionsOf)).toEqual(['ses:SendEmail']);
    expect((ses[0] as TStatement & { Condition?: unknown }).Condition).toEqual({
      StringEquals: { 'ses:FromAddress': 'no-reply@example.com' },
    });
    // Beside GET on its usage plan, as every keyed function (the admin API's rate limit headers).
    const apigateway = statements.filter((s) =>
      actionsOf(s).some((a) => a.startsWith('apigateway:') && a !== 'apigateway:GET'),
    );
    expect(apigateway.flatMap(actionsOf)).toEqual(['apigateway:POST', 'apigateway:DELETE']);
    const targets = [apigateway[0]!.Resource].flat().map(render);
    expect([apigateway[1]!.Resource].flat().map(render)).toEqual([expect.stringMatching(/::\/apikeys\/\*$/)]);
    expect(targets.some((r) => r.endsWith('::/apikeys'))).toBe(true);
    expect(targets.some((r) => /::\/usageplans\/.+\/keys$/.test(r))).toBe(true);
  });
});
