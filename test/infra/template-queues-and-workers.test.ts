// The queues and what sets each worker off (infra/constructs/queues-and-workers.ts).
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '#infra/queues';
import { stageConfig } from '#infra/stage-config';
import { MAX_ATTEMPTS } from '#shared/domain/webhooks/deliver-event';
import {
  actionsOf,
  envVarsOf,
  functionId,
  liveAlias,
  liveAliasName,
  logicalIdOf,
  oneJobAtATime,
  render,
  resources,
  roleStatements,
  SYNTH_TIMEOUT_MS,
  synthStages,
  type TStatement,
} from './stack-template';

let dev: Template;
let prod: Template;

beforeAll(() => {
  ({ dev, prod } = synthStages());
}, SYNTH_TIMEOUT_MS);

describe('webhook delivery', () => {
  const queueId = (template: Template, name: string) =>
    logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: name });

  it('has the deliveries queue with a dead-letter queue after the last attempt, and an alarm on its depth', () => {
    const all = resources(dev);
    const main = all[queueId(dev, 'esign-dev-webhook-deliveries')]!.Properties!;
    const dlqId = queueId(dev, 'esign-dev-webhook-deliveries-dlq');
    expect(main.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: MAX_ATTEMPTS,
    });
    expect(main.VisibilityTimeout).toBe(QUEUES.webhookDeliveries.visibilityTimeoutSeconds);
    dev.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('runs the dispatcher from the queue with batch item failures and reserved concurrency', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const fnId = functionId(template, stack, 'webhook-dispatcher');
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.ReservedConcurrentExecutions).toBe(stageConfig(stage).webhookDispatcherConcurrency);
      // Every call ends within 10 s; the queue hides a batch longer than the function may run.
      expect(fn.Timeout).toBeLessThan(QUEUES.webhookDeliveries.visibilityTimeoutSeconds);
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: liveAliasName(template, fnId),
        EventSourceArn: { 'Fn::GetAtt': [queueId(template, `esign-${stage}-webhook-deliveries`), 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const actions = roleStatements(template, fnId).flatMap(actionsOf);
      expect(actions).toEqual(expect.arrayContaining(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage']));
    }
  });

  it('lets the outbox publishers and the webhooks function queue deliveries, and sweeps outboxes every minute', () => {
    const queue = queueId(dev, 'esign-dev-webhook-deliveries');
    const sendsTo = (name: string) => {
      const sends = roleStatements(dev, functionId(dev, 'Esign-dev', name)).filter((st) =>
        actionsOf(st).includes('sqs:SendMessage'),
      );
      return JSON.stringify(sends.map((st) => st.Resource));
    };
    // The webhooks function queues a redelivery; the relay and the sweeper publish outboxes; the
    // page's function and the bulk worker send their own events (doc_template_updated, bulk_completed).
    for (const name of [
      'webhooks',
      'outbox-relay',
      'outbox-sweeper',
      'public-pages',
      'bulk-worker',
    ] as const) {
      expect(envVarsOf(dev, functionId(dev, 'Esign-dev', name)).WEBHOOK_QUEUE_URL, name).toEqual({
        Ref: queue,
      });
      expect(sendsTo(name), name).toContain(queue);
    }
    // Publishing reads, adds and updates the table's items; it never deletes one.
    for (const name of ['outbox-relay', 'outbox-sweeper'] as const) {
      const dynamo = roleStatements(dev, functionId(dev, 'Esign-dev', name))
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(a));
      expect(dynamo.sort(), name).toEqual([
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
    }
    // The functions that change bundles only write the outbox: the relay publishes it.
    for (const name of ['bundles', 'packets', 'persons', 'scheduler'] as const) {
      expect(envVarsOf(dev, functionId(dev, 'Esign-dev', name)), name).not.toHaveProperty(
        'WEBHOOK_QUEUE_URL',
      );
      expect(sendsTo(name), name).not.toContain(queue);
    }
    dev.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: liveAlias(dev, functionId(dev, 'Esign-dev', 'outbox-sweeper')) })],
    });
  });
});

describe('notifications worker', () => {
  const fnOf = (template: Template, stack: string) => functionId(template, stack, 'notifications-worker');

  it('consumes the notifications queue with batch item failures, within its visibility timeout', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const fnId = fnOf(template, stack);
      const queue = logicalIdOf(template, 'AWS::SQS::Queue', { QueueName: `esign-${stage}-notifications` });
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: liveAliasName(template, fnId),
        EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.Timeout).toBeLessThan(QUEUES.notifications.visibilityTimeoutSeconds);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(vars)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'PUBLIC_BASE_URL', 'MAIL_FROM', 'SES_CONFIGURATION_SET']),
      );
      expect(vars.NOTIFICATIONS_QUEUE_URL).toEqual({ Ref: queue });
      const statements = roleStatements(template, fnId);
      const actions = statements.flatMap(actionsOf);
      expect(actions).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      // It queues no jobs (it sends only to the failure queue of its SNS invocations), touches no
      // secrets, and reads the documents (a documents-ready email may attach the signed copies)
      // but never writes or deletes one.
      const sends = statements.filter((st) => actionsOf(st).includes('sqs:SendMessage'));
      const failures = logicalIdOf(template, 'AWS::SQS::Queue', {
        QueueName: `esign-${stage}-mail-events-dlq`,
      });
      expect(sends.map((st) => st.Resource)).toEqual([{ 'Fn::GetAtt': [failures, 'Arn'] }]);
      // It reads signed copies to attach, so it may decrypt with the documents key and accounts'
      // own keys (through S3, template-storage.test.ts), nothing more.
      expect(actions.filter((a) => /^(kms|apigateway):/.test(a)).sort()).toEqual([
        'kms:Decrypt',
        'kms:Decrypt',
      ]);
      expect(actions.filter((a) => /^s3:/.test(a)).sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    }
  });

  it('may send email only from the configured address, with the configuration set, and SMS only to phones', () => {
    const statements = roleStatements(dev, fnOf(dev, 'Esign-dev')) as (TStatement & {
      Condition?: unknown;
      NotResource?: unknown;
    })[];
    const ses = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect(actionsOf(ses[0]!)).toEqual(['ses:SendEmail']);
    const sesResources = [ses[0]!.Resource].flat().map(render);
    expect(sesResources).not.toContain('*');
    expect(sesResources.some((r) => r.includes(':identity/example.com'))).toBe(true);
    expect(sesResources.some((r) => /:configuration-set\//.test(r))).toBe(true);
    expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });

    const sns = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sns:')));
    expect(sns).toHaveLength(1);
    expect(actionsOf(sns[0]!)).toEqual(['sns:Publish']);
    expect(sns[0]!.Resource).toBeUndefined();
    expect(render(sns[0]!.NotResource)).toBe('arn:<AWS::Partition>:sns:*:*:*');
  });

  it('hears SES bounces and complaints through a topic, and keeps reports it could not record', () => {
    const fnId = fnOf(dev, 'Esign-dev');
    const topic = logicalIdOf(dev, 'AWS::SNS::Topic', {
      DisplayName: 'esign-dev: SES bounces and complaints',
    });
    dev.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['bounce', 'complaint']),
        SnsDestination: { TopicARN: { Ref: topic } },
      }),
    });
    dev.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: topic },
      Endpoint: liveAlias(dev, fnId),
    });
    dev.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId },
      MaximumRetryAttempts: 2,
      DestinationConfig: {
        OnFailure: {
          Destination: {
            'Fn::GetAtt': [
              logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-mail-events-dlq' }),
              'Arn',
            ],
          },
        },
      },
    });
    const dlq = logicalIdOf(dev, 'AWS::SQS::Queue', { QueueName: 'esign-dev-notifications-dlq' });
    dev.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
      Threshold: 1,
    });
  });
});

describe('scheduler (reminders and expiry)', () => {
  it('runs the scheduler every five minutes; the relay publishes its changes, as any other', () => {
    for (const [template, stack] of [
      [dev, 'Esign-dev'],
      [prod, 'Esign-prod'],
    ] as const) {
      const fnId = functionId(template, stack, 'scheduler');
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(5 minutes)',
        Targets: [Match.objectLike({ Arn: liveAlias(template, fnId) })],
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: liveAlias(template, fnId),
        Principal: 'events.amazonaws.com',
      });
      const fn = resources(template)[fnId]!.Properties!;
      // A run ends well before the next one starts (overlapping runs would still be safe).
      expect(fn.Timeout).toBeLessThanOrEqual(300);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars.TABLE_NAME).toEqual({ Ref: expect.any(String) });
      // Its changes (reminders, expiry) go out with the bundle's outbox, which the relay publishes:
      // it is told of no queue and may send to none.
      expect(Object.keys(vars).filter((v) => v.endsWith('_QUEUE_URL'))).toEqual([]);
      const statements = roleStatements(template, fnId);
      const actions = statements.flatMap(actionsOf);
      expect(actions.filter((a) => a.startsWith('sqs:'))).toEqual([]);
      // It queries the by-due index and writes bundles; of S3 it only lists and deletes the object
      // versions a retention policy deletes (template-functions.test.ts holds their resources);
      // nothing of KMS or API Gateway.
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem']));
      expect(actions.filter((a) => /^s3:/.test(a)).sort()).toEqual([
        's3:DeleteObjectVersion',
        's3:ListBucketVersions',
      ]);
      expect(actions.filter((a) => /^(kms|apigateway):/.test(a))).toEqual([]);
    }
  });

  it('declares the sparse by-due index, keys only', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: 'by-due',
          KeySchema: [
            { AttributeName: 'duePk', KeyType: 'HASH' },
            { AttributeName: 'dueSk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ]),
    });
  });
});

describe('bulk worker', () => {
  it('consumes the bulk-jobs queue a chunk at a time, paced by the stage throttle, with a DLQ alarm', () => {
    for (const [template, stack, stage] of [
      [dev, 'Esign-dev', 'dev'],
      [prod, 'Esign-prod', 'prod'],
    ] as const) {
      const { fnId, queue, dlq } = oneJobAtATime(template, stack, stage, 'bulk-worker', 'bulk-jobs');
      const q = resources(template)[queue]!.Properties!;
      expect((q.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(
        QUEUES.bulkJobs.maxReceiveCount,
      );
      const fn = resources(template)[fnId]!.Properties!;
      expect(fn.Timeout).toBeLessThan(QUEUES.bulkJobs.visibilityTimeoutSeconds);
      const vars = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(vars.BULK_QUEUE_URL).toEqual({ Ref: queue });
      expect(vars.BULK_ROWS_PER_SECOND).toBe('25');
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
        Threshold: 1,
      });
      // The bundles function queues a batch's first chunk.
      const bundlesEnv = envVarsOf(template, functionId(template, stack, 'bundles'));
      expect(bundlesEnv.BULK_QUEUE_URL).toEqual({ Ref: queue });
    }
  });
});
