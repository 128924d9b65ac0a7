import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SNSEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDocumentClient, createSesClient, createSqsClient } from '#shared/adapters/aws/clients';
import { createSnsClient } from '#shared/adapters/aws/sns-client';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { createCopyLinkStore } from '#shared/adapters/dynamodb/copy-link-store';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createNotificationStore } from '#shared/adapters/dynamodb/notification-store';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import { parseSesNotification } from '#shared/adapters/ses/ses-events';
import { createSesMailer } from '#shared/adapters/ses/ses-mailer';
import { createSnsSmsSender } from '#shared/adapters/sns/sns-sms-sender';
import { createRetryLater } from '#shared/adapters/sqs/retry-later';
import { randomIds, systemClock } from '#shared/adapters/system';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { documentBlobs, type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { jobWorker } from '#shared/composition/job-batch';
import { mailSignInLinks } from '#shared/domain/console/request-sign-in-link';
import { signInMailer } from '#shared/domain/console/sign-in-mail';
import { DEFAULT_MAIL_FROM } from '#shared/domain/notifications/notification';
import { recordDeliveryReport } from '#shared/domain/notifications/record-delivery-report';
import { sendNotification, type TNotifyDeps } from '#shared/domain/notifications/send-notification';
import type { TNotificationJob, TSignInMailJob } from '#shared/domain/outbox/jobs/notifications';
import type { TMailer, TSmsSender } from '#shared/domain/ports/notifications';

const isSnsEvent = (event: SQSEvent | SNSEvent): event is SNSEvent => event.Records.some((r) => 'Sns' in r);

/**
 * Composition root of the notifications worker. One Lambda, two event sources:
 * - the notifications queue (an SQS event source with batch item failures on AWS,
 *   infra/local/queue-consumer.ts locally): each job's messages are sent once
 *   (shared/domain/notifications/send-notification.ts); the job, its retries and its handler
 *   are shared/domain/outbox/jobs/notifications.ts;
 * - the SNS topic SES publishes bounces and complaints to (locally the outbox stand-in calls it
 *   for SES's simulator addresses): each becomes an `nb` audit event. A failure throws, so that
 *   Lambda retries the asynchronous invocation and then hands it to its failure destination.
 */
export function buildNotificationsWorker(
  opts: TFunctionOptions & { sqs?: SQSClient; mailer?: TMailer; sms?: TSmsSender },
) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const sqs = opts.sqs ?? createSqsClient(config);
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const scale = config.notificationRetryScale ?? 1;
  const base = {
    bundles: createBundleStore(db, config.tableName),
    accounts: createAccountStore(db, config.tableName),
    tokens: createSigningTokenStore(db, config.tableName),
    notifications: createNotificationStore(db, config.tableName),
    // Documents ready: each recipient's link to the signed copies, and the files themselves.
    copies: createCopyLinkStore(db, config.tableName),
    evidence: createEvidenceStore(db, config.tableName),
    blobs: documentBlobs(config, db),
    ...(config.copyLinkDays ? { copyLinkDays: config.copyLinkDays } : {}),
    mailer:
      opts.mailer ??
      createSesMailer(createSesClient(config), {
        ...(config.mail?.configurationSet ? { configurationSetName: config.mail.configurationSet } : {}),
      }),
    sms: opts.sms ?? createSnsSmsSender(createSnsClient(config)),
    clock: systemClock,
    ids: randomIds,
  };
  // Read per job: the local runtime learns its public address only once its gateway listens.
  const deps = (): TNotifyDeps => ({
    ...base,
    mailFrom: config.mail?.from ?? DEFAULT_MAIL_FROM,
    publicBaseUrl: config.publicBaseUrl ?? '',
    metrics,
  });

  const retryLater = createRetryLater(sqs, config.queues?.notifications, log);

  async function handleReports(event: SNSEvent): Promise<void> {
    for (const record of event.Records) {
      const report = parseSesNotification(record.Sns.Message);
      if (!report) {
        log.info('mail event ignored', { snsMessageId: record.Sns.MessageId });
        continue;
      }
      try {
        const result = await recordDeliveryReport(deps(), report);
        log.info('mail delivery report', {
          kind: report.kind,
          providerMessageId: report.providerMessageId,
          result,
        });
      } catch (err) {
        log.error('mail delivery report not recorded', {
          kind: report.kind,
          providerMessageId: report.providerMessageId,
          error: (err as Error).message,
        });
        throw err;
      }
    }
  }

  const send = (job: TNotificationJob, attempt: number) => sendNotification(deps(), job, attempt);
  // A console sign-in asked for: its address looked up and its users mailed, after the answer.
  const consoleStore = createConsoleStore(db, config.tableName);
  const signInMail = async (job: TSignInMailJob) => {
    const d = deps();
    const { linksSent } = await mailSignInLinks(
      {
        console: consoleStore,
        accounts: base.accounts,
        mailer: signInMailer(base.mailer, d.mailFrom),
        ids: randomIds,
        publicBaseUrl: d.publicBaseUrl,
      },
      job,
    );
    // The count goes to the log only, never the address.
    log.info('console sign-in mailed', { linksSent });
  };
  const jobs = jobWorker(
    'notifications',
    { send, signInMail, log, metrics, retryScale: scale },
    { log, retryLater },
  );
  const handler = async (event: SQSEvent | SNSEvent): Promise<SQSBatchResponse | undefined> => {
    if (isSnsEvent(event)) {
      await handleReports(event);
      return undefined;
    }
    return jobs(event);
  };
  return withTelemetry(telemetry, handler);
}
