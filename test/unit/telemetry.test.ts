// The telemetry adapter on Powertools: the lines its logger prints keep every mask, the metrics
// come out as EMF with the service's namespace and dimensions, and the workers and the bundle
// store record what they should, each through the TMetrics port.

import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { Context, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { buildDocumentWorker } from '#functions/document-worker/app';
import { buildNotificationsWorker } from '#functions/notifications-worker/app';
import { createLogger, powertoolsLoggerOf } from '#shared/adapters/telemetry/logger';
import { createServiceMetrics, METRICS_NAMESPACE, type TEmf } from '#shared/adapters/telemetry/metrics';
import { localTelemetry, quietTelemetry } from '#shared/adapters/telemetry/telemetry';
import type { TConfig } from '#shared/config';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { DOCUMENT_MAX_ATTEMPTS } from '#shared/domain/evidence/evidence-files';
import { countMilestones } from '#shared/domain/outbox/milestones-store';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TEvidencePdf } from '#shared/domain/ports/evidence';
import type { TMailer, TSmsSender } from '#shared/domain/ports/notifications';
import { loggablePath } from '#shared/logger';
import { metricsOfEmf, metricsRecorder } from '../helpers/metrics';

const TOKEN = 'aB3'.repeat(14).slice(0, 43);

function printed(level: Parameters<typeof createLogger>[0] = 'debug') {
  const lines: string[] = [];
  const log = createLogger(level, { service: 'bundles', write: (line) => lines.push(line) });
  return { log, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const context = {
  functionName: 'Esign-dev-bundles',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:Esign-dev-bundles',
  memoryLimitInMB: '512',
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  getRemainingTimeInMillis: () => 10_000,
} as Context;

describe('the Powertools logger', () => {
  it('prints masked JSON lines: credential-named fields at any depth, in fields and in a child’s keys', () => {
    const { log, lines, entries } = printed();
    log.child({ requestId: 'r-1', authorization: 'Token child-secret' }).info('request', {
      headers: { Authorization: 'Token abc123', host: 'api.example.org' },
      nested: [{ deeper: { password: 'hunter2', apiKey: 'k-123', webhook_secret: 'whsec_1' } }],
      path: loggablePath(`/sign/${TOKEN}`),
    });
    const [entry] = entries();
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'request',
      service: 'bundles',
      requestId: 'r-1',
      authorization: '[redacted]',
      headers: { Authorization: '[redacted]', host: 'api.example.org' },
      nested: [{ deeper: { password: '[redacted]', apiKey: '[redacted]', webhook_secret: '[redacted]' } }],
      path: '/sign/[token]',
    });
    expect(new Date(entry!.time as string).getTime()).not.toBeNaN();
    for (const secret of ['child-secret', 'abc123', 'hunter2', 'k-123', 'whsec_1', TOKEN]) {
      expect(lines.join('\n')).not.toContain(secret);
    }
  });

  it('masks keys added on the Powertools instance itself, and errors keep their cause', () => {
    const { log, entries } = printed();
    powertoolsLoggerOf(log)!.appendKeys({ cookie: 'session=leak' });
    const cause = Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    log.error('request failed', { err: new Error('Payments are unavailable right now', { cause }) });
    expect(entries()[0]).toMatchObject({
      level: 'error',
      cookie: '[redacted]',
      err: {
        name: 'Error',
        message: 'Payments are unavailable right now',
        cause: { name: 'AccessDeniedException' },
      },
    });
  });

  it("prints a child's keys, and its children's, through the one Powertools instance", () => {
    const { log, entries } = printed();
    const request = log.child({ requestId: 'r-2', route: 'GET /x' });
    const step = request.child({ step: 'read', route: 'GET /y' });
    step.info('read', { ms: 3 });
    request.warn('slow', { requestId: 'r-3' });
    log.info('bare');
    expect(entries()).toEqual([
      expect.objectContaining({ msg: 'read', requestId: 'r-2', route: 'GET /y', step: 'read', ms: 3 }),
      expect.objectContaining({ msg: 'slow', requestId: 'r-3', route: 'GET /x' }),
      expect.not.objectContaining({ requestId: expect.anything() }),
    ]);
    expect(entries()[1]).not.toHaveProperty('step');
    // A Powertools child is a new Logger reading its options again: one per request was ~1 ms.
    expect(powertoolsLoggerOf(step)).toBe(powertoolsLoggerOf(log));
  });

  it('prints nothing below its level, and nothing at all when silent', () => {
    const warn = printed('warn');
    warn.log.info('not shown');
    warn.log.warn('shown');
    expect(warn.entries().map((e) => e.msg)).toEqual(['shown']);
    const silent = printed('silent');
    silent.log.error('not shown either');
    silent.log.child({ fn: 'x' }).error('nor this');
    expect(silent.lines).toEqual([]);
  });

  it("carries the Lambda invocation's request id once injectLambdaContext has run", async () => {
    const { log, entries } = printed();
    const handler = middy(async () => {
      log.child({ requestId: 'api-1' }).info('inside');
    }).use(injectLambdaContext(powertoolsLoggerOf(log)!));
    await handler({}, context);
    expect(entries()[0]).toMatchObject({
      msg: 'inside',
      requestId: 'api-1',
      function_request_id: context.awsRequestId,
    });
  });
});

describe('the Powertools metrics', () => {
  it('print EMF in the OpenEsign namespace with service and stage; a metric with dimensions at once, the rest at the flush', async () => {
    const emfs: TEmf[] = [];
    const log = createLogger('silent');
    const telemetry = localTelemetry({ log, service: 'bundles', stage: 'dev', sink: (e) => emfs.push(e) });
    const handler = middy(async () => {
      telemetry.metrics.count('ApiRequests', { route: 'POST /bundles' });
      expect(metricsOfEmf(emfs).map((m) => m.name)).toEqual(['ApiRequests']);
      telemetry.metrics.count('BundlesSent');
      telemetry.metrics.duration('SealTime', 1234.4);
      expect(emfs).toHaveLength(1);
    });
    for (const m of telemetry.middlewares) handler.use(m);
    await handler({}, context);
    expect(metricsOfEmf(emfs)).toEqual([
      {
        namespace: METRICS_NAMESPACE,
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'bundles', stage: 'dev', route: 'POST /bundles' },
      },
      {
        namespace: METRICS_NAMESPACE,
        name: 'BundlesSent',
        unit: 'Count',
        value: 1,
        dimensions: { service: 'bundles', stage: 'dev' },
      },
      {
        namespace: METRICS_NAMESPACE,
        name: 'SealTime',
        unit: 'Milliseconds',
        value: 1234,
        dimensions: { service: 'bundles', stage: 'dev' },
      },
    ]);
  });

  it('take the namespace they are given (POWERTOOLS_METRICS_NAMESPACE on Lambda)', () => {
    const emfs: TEmf[] = [];
    const { metrics } = createServiceMetrics({
      service: 'webhooks',
      stage: 'prod',
      namespace: 'Elsewhere',
      log: createLogger('silent'),
      sink: (e) => emfs.push(e),
    });
    metrics.count('WebhookDeliveries', { outcome: 'delivered' });
    expect(metricsOfEmf(emfs)[0]).toMatchObject({ namespace: 'Elsewhere', dimensions: { stage: 'prod' } });
  });
});

describe('bundles sent and completed', () => {
  const aBundle = (status: TBundle['status']) => ({ id: 'B1', accountId: 'A1', status }) as TBundle;

  it('count once, when the write that reaches the milestone succeeds', async () => {
    const { seen, metrics } = metricsRecorder();
    let refuse = false;
    const store = countMilestones(
      {
        create: async () => undefined,
        save: async () => {
          if (refuse) throw Object.assign(new Error('conditional check failed'), { name: 'ConflictError' });
        },
      } as unknown as TBundleStore,
      metrics,
    );
    await store.create(aBundle('dr'), []);
    expect(seen).toEqual([]);
    refuse = true;
    await expect(store.save(aBundle('se'), aBundle('dr'))).rejects.toThrow();
    expect(seen).toEqual([]);
    refuse = false;
    await store.save(aBundle('se'), aBundle('dr'));
    await store.save(aBundle('st'), aBundle('se'));
    await store.save(aBundle('co'), aBundle('st'));
    await store.save(aBundle('co'), aBundle('co'));
    await store.create(aBundle('se'), []);
    expect(seen.map((m) => m.name)).toEqual(['BundlesSent', 'BundlesCompleted', 'BundlesSent']);
  });
});

describe('the workers', () => {
  const config: TConfig = {
    stage: 'test',
    region: 'us-east-1',
    tableName: 'table',
    bucketName: 'bucket',
    usagePlanId: 'plan',
    logLevel: 'silent',
    endpoints: {},
    queues: { documentJobs: 'q-documents', notifications: 'q-notifications' },
  };
  // The table is down: every job fails, and the workers say so in their metrics.
  const tableDown = {
    send: async () => Promise.reject(new Error('table unreachable')),
  } as unknown as DynamoDBDocumentClient;
  const sqs = { send: async () => ({}) } as unknown as SQSClient;
  const job = (body: object, attempt: number): SQSEvent => ({
    Records: [
      {
        messageId: 'm1',
        receiptHandle: 'r1',
        body: JSON.stringify(body),
        attributes: { ApproximateReceiveCount: String(attempt) },
      } as unknown as SQSEvent['Records'][number],
    ],
  });

  it('the document worker counts each attempt by outcome: retry, then failed after the last', async () => {
    const { seen, metrics } = metricsRecorder();
    const worker = buildDocumentWorker({
      config,
      db: tableDown,
      sqs,
      pdf: {} as TEvidencePdf,
      telemetry: { ...quietTelemetry(createLogger('silent')), metrics },
    });
    const final = { type: 'final', accountId: 'A1', bundleId: 'B1', seq: 7, date: '' };
    expect((await worker(job(final, 1))).batchItemFailures).toHaveLength(1);
    expect((await worker(job(final, DOCUMENT_MAX_ATTEMPTS))).batchItemFailures).toHaveLength(1);
    expect(seen).toEqual([
      { name: 'DocumentJobAttempts', by: { outcome: 'retry' }, value: 1 },
      { name: 'DocumentJobAttempts', by: { outcome: 'failed' }, value: 1 },
    ]);
  });

  it('the notifications worker counts a job that failed, and sends nothing', async () => {
    const { seen, metrics } = metricsRecorder();
    const sent: unknown[] = [];
    const worker = buildNotificationsWorker({
      config,
      db: tableDown,
      sqs,
      mailer: { send: async (m: unknown) => sent.push(m) } as unknown as TMailer,
      sms: { send: async (m: unknown) => sent.push(m) } as unknown as TSmsSender,
      telemetry: { ...quietTelemetry(createLogger('silent')), metrics },
    });
    const request = { type: 'signing_request', accountId: 'A1', bundleId: 'B1', seq: 3, date: '' };
    const answer = await worker(job(request, 1));
    expect(answer?.batchItemFailures).toHaveLength(1);
    expect(sent).toEqual([]);
    expect(seen).toEqual([{ name: 'NotificationFailures', value: 1 }]);
  });
});
