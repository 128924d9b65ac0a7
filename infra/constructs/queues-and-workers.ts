// The queues of infra/queues.ts with their dead-letter queues, SES's mail events, and what sets
// each worker off: its queue (batch item failures, a concurrency cap), or a schedule for the
// outbox sweeper and the scheduler. The workers themselves are defined in functions.ts.
import { Duration, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaFunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import {
  DynamoEventSource,
  SqsDlq,
  SqsEventSource,
  type SqsEventSourceProps,
} from 'aws-cdk-lib/aws-lambda-event-sources';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { acceptFinding } from '../nag';
import { QUEUES } from '../queues';
import type { TStageConfig } from '../stage-config';
import { CONSUMERS, SCHEDULES, STREAM_CONSUMERS } from '../workers';
import type { ApiFunction } from './api-function';
import { deadLetterAlarm } from './operations';
import { queueWithDeadLetters } from './queue';

/** The functions this wires to their queues and schedules (functions.ts makes them). */
export interface TWorkers {
  dispatcher: ApiFunction;
  relay: ApiFunction;
  sweeper: ApiFunction;
  scheduler: ApiFunction;
  bulkWorker: ApiFunction;
  notifier: ApiFunction;
  documentWorker: ApiFunction;
}

/** Made in the stack's own scope, so logical IDs stay as they were (see Storage). */
export class QueuesAndWorkers {
  readonly webhookQueue: Queue;
  readonly notifications: Queue;
  readonly documentJobs: Queue;
  readonly bulkJobs: Queue;
  /** The one sender address (`-c mailFrom=…`), its domain or itself verified in SES. */
  readonly mailFrom: string;
  readonly mailConfigurationSet: ConfigurationSet;
  private readonly mailDomain: string;
  private readonly mailEvents: Topic;
  private readonly stack: Stack;
  private readonly stage: string;
  private readonly dispatcherConcurrency: number;

  constructor(stack: Stack, config: TStageConfig) {
    this.stack = stack;
    this.stage = config.stage;
    this.dispatcherConcurrency = config.webhookDispatcherConcurrency;
    // Webhook delivery jobs, messages to people and evidence jobs: every function that changes
    // bundles publishes a change's outbox onto all three (shared/composition/bundle-publishing.ts).
    this.webhookQueue = queueWithDeadLetters(stack, config.stage, QUEUES.webhookDeliveries);
    this.notifications = queueWithDeadLetters(stack, config.stage, QUEUES.notifications);
    this.documentJobs = queueWithDeadLetters(stack, config.stage, QUEUES.documentJobs);
    // Bulk sends: the bundles function queues a batch's first chunk, the bulk worker the rest.
    this.bulkJobs = queueWithDeadLetters(stack, config.stage, QUEUES.bulkJobs);

    // Messages to people (ARCHITECTURE.md, "Notifications"): email through SES from one sender
    // address (`-c mailFrom=…`, its domain or address verified in SES), SMS through SNS. SES
    // reports bounces and complaints of mail sent with the configuration set to a topic the
    // worker subscribes to.
    this.mailFrom = String(stack.node.tryGetContext('mailFrom') ?? 'no-reply@example.com');
    const mailDomain = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(this.mailFrom)?.[1];
    if (!mailDomain) throw new Error(`mailFrom must be an email address, got "${this.mailFrom}"`);
    this.mailDomain = mailDomain;
    this.mailEvents = new Topic(stack, 'MailEventsTopic', {
      displayName: `esign-${config.stage}: SES bounces and complaints`,
      enforceSSL: true,
    });
    this.mailConfigurationSet = new ConfigurationSet(stack, 'MailConfigurationSet', {
      configurationSetName: `esign-${config.stage}`,
    });
    this.mailConfigurationSet.addEventDestination('BouncesAndComplaints', {
      destination: EventDestination.snsTopic(this.mailEvents),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.REJECT],
    });
  }

  get webhookEnv(): { WEBHOOK_QUEUE_URL: string } {
    return { WEBHOOK_QUEUE_URL: this.webhookQueue.queueUrl };
  }

  /** The three queues a bundle change's outbox is published onto. */
  get publishEnv(): Record<string, string> {
    return {
      ...this.webhookEnv,
      NOTIFICATIONS_QUEUE_URL: this.notifications.queueUrl,
      DOCUMENTS_QUEUE_URL: this.documentJobs.queueUrl,
    };
  }

  /** The document jobs' queue alone: the account function queues exports on it, the document worker puts off its own. */
  get documentsEnv(): { DOCUMENTS_QUEUE_URL: string } {
    return { DOCUMENTS_QUEUE_URL: this.documentJobs.queueUrl };
  }

  get bulkEnv(): { BULK_QUEUE_URL: string } {
    return { BULK_QUEUE_URL: this.bulkJobs.queueUrl };
  }

  grantPublish(fn: ApiFunction): void {
    fn.grantSend(this.webhookQueue);
    fn.grantSend(this.notifications);
    fn.grantSend(this.documentJobs);
  }

  /** Sets each worker off. Call once every function exists, after functions.ts's grants. */
  wire(functions: TWorkers, table: ITable): void {
    const { dispatcher, relay, sweeper, scheduler, bulkWorker, notifier, documentWorker } = functions;
    const stack = this.stack;
    this.wireOutboxRelay(relay, table);
    this.consumeWatched(
      dispatcher,
      this.webhookQueue,
      {
        batchSize: CONSUMERS.webhookDeliveries.batchSize,
        maxConcurrency: Math.max(2, this.dispatcherConcurrency),
      },
      ['WebhookDeadLettersAlarm', 'Webhook events that failed every delivery attempt (see the webhook log)'],
    );

    new Rule(stack, 'OutboxSweepSchedule', {
      schedule: Schedule.rate(Duration.minutes(SCHEDULES['outbox-sweeper'].everyMinutes)),
      targets: [new LambdaFunctionTarget(sweeper.live)],
    });
    // Reminders and expiry (ARCHITECTURE.md), at the pace infra/workers.ts declares.
    new Rule(stack, 'SchedulerSchedule', {
      schedule: Schedule.rate(Duration.minutes(SCHEDULES.scheduler.everyMinutes)),
      targets: [new LambdaFunctionTarget(scheduler.live)],
    });

    this.consumeWatched(
      bulkWorker,
      this.bulkJobs,
      { batchSize: CONSUMERS.bulkJobs.batchSize, maxConcurrency: 2 },
      [
        'BulkJobDeadLettersAlarm',
        'Bulk send chunks that failed every attempt: their batch stays unfinished (see the worker logs)',
      ],
    );

    this.wireNotifications(notifier);

    this.consumeWatched(
      documentWorker,
      this.documentJobs,
      { batchSize: CONSUMERS.documentJobs.batchSize, maxConcurrency: 5 },
      [
        'DocumentJobDeadLettersAlarm',
        'Document jobs whose failure could not be recorded (see the worker logs)',
      ],
    );
  }

  /**
   * The outbox relay reads the table's stream: the records its filter names (infra/workers.ts),
   * failed ones retried from the first that failed, halved batches to find the one at fault,
   * then described on a dead-letter queue (the bundle's outbox stays for the sweeper) under an
   * alarm.
   */
  private wireOutboxRelay(relay: ApiFunction, table: ITable): void {
    const { batchSize, filter } = STREAM_CONSUMERS['outbox-relay'];
    const failures = new Queue(this.stack, 'outbox-relay-dlq', {
      queueName: `esign-${this.stage}-outbox-relay-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acceptFinding(
      failures,
      'SQS3',
      "This queue is itself the failure destination of the outbox relay's stream records, with its own alarm below; nothing consumes it, so it has no dead-letter queue of its own.",
    );
    relay.live.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize,
        filters: [FilterCriteria.filter(filter)],
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 5,
        onFailure: new SqsDlq(failures),
      }),
    );
    deadLetterAlarm(
      this.stack,
      'OutboxRelayFailuresAlarm',
      'Bundle changes the outbox relay could not publish (the sweeper publishes them; see the relay logs)',
      failures,
    );
  }

  /** A worker consuming its queue, and the alarm (id, what it means) on that queue's dead letters. */
  private consumeWatched(
    worker: ApiFunction,
    queue: Queue,
    options: Pick<SqsEventSourceProps, 'batchSize' | 'maxConcurrency'>,
    [alarmId, meaning]: readonly [string, string],
  ): void {
    consume(worker, queue, options);
    deadLetterAlarm(this.stack, alarmId, meaning, queue.deadLetterQueue!.queue);
  }

  /**
   * SendEmail from the one sender address only, through its identity (the domain, or the
   * address itself if that is what was verified) and with the configuration set.
   */
  grantSendMail(fn: ApiFunction): void {
    const stack = this.stack;
    const sesArn = (resource: string) =>
      `arn:${stack.partition}:ses:${stack.region}:${stack.account}:${resource}`;
    fn.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          sesArn(`identity/${this.mailDomain}`),
          sesArn(`identity/${this.mailFrom}`),
          sesArn(`configuration-set/${this.mailConfigurationSet.configurationSetName}`),
        ],
        conditions: { StringEquals: { 'ses:FromAddress': this.mailFrom } },
      }),
    );
  }

  private wireNotifications(notifier: ApiFunction): void {
    const stack = this.stack;
    // Two batches at a time (their size in infra/workers.ts), within SES's default sending rate.
    consume(notifier, this.notifications, {
      batchSize: CONSUMERS.notifications.batchSize,
      maxConcurrency: 2,
    });
    this.grantSendMail(notifier);
    // SMS to a phone number has no resource ARN to scope by; excluding every topic ARN leaves
    // Publish to phone numbers only (as for the signing function's SMS codes).
    notifier.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        notResources: [`arn:${stack.partition}:sns:*:*:*`],
      }),
    );
    this.mailEvents.addSubscription(new LambdaSubscription(notifier.live));
    // SNS invokes asynchronously: Lambda retries a failed report twice, then keeps it here.
    const mailEventFailures = new Queue(stack, 'mail-events-dlq', {
      queueName: `esign-${this.stage}-mail-events-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    notifier.live.configureAsyncInvoke({
      retryAttempts: 2,
      onFailure: new SqsDestination(mailEventFailures),
    });
    acceptFinding(
      mailEventFailures,
      'SQS3',
      "This queue is itself the failure destination of the mail events' asynchronous invocations, with its own alarm below; nothing consumes it, so it has no dead-letter queue of its own.",
    );
    for (const [id, queue, what] of [
      [
        'NotificationDeadLettersAlarm',
        this.notifications.deadLetterQueue!.queue,
        'Notification jobs that failed every attempt',
      ],
      [
        'MailEventDeadLettersAlarm',
        mailEventFailures,
        'SES bounce or complaint reports that could not be recorded',
      ],
    ] as const) {
      deadLetterAlarm(stack, id, `${what} (see the bundles' nf audit events and the worker's logs)`, queue);
    }
  }
}

/** Receive, delete and ChangeMessageVisibility (which schedules retries), then the event source. */
function consume(
  worker: ApiFunction,
  queue: Queue,
  options: Pick<SqsEventSourceProps, 'batchSize' | 'maxConcurrency'>,
): void {
  queue.grantConsumeMessages(worker.fn);
  worker.live.addEventSource(new SqsEventSource(queue, { ...options, reportBatchItemFailures: true }));
}
