// Every Lambda of the service but the authorizer (api.ts): what each is told (environment), how
// big it is, and what it may touch. ApiFunction builds, logs and permits them all alike, and
// bundles their code (lambda-code.ts). Made in the order of the dashboard's lines.
import { Duration, type Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { bulkRowsPerSecond } from '#shared/domain/bulk/bulk-batch';
import { API_ROUTES, type TFunctionName } from '../api-routes';
import { VIEWER_ADDRESS_HEADER } from '../front-door';
import { QUEUES } from '../queues';
import type { TStageConfig } from '../stage-config';
import type { Api } from './api';
import { ApiFunction, type ApiFunctionProps } from './api-function';
import type { Edge } from './edge';
import type { EvidenceAndKeys } from './evidence-and-keys';
import type { QueuesAndWorkers, TWorkers } from './queues-and-workers';
import type { Storage } from './storage';

/** The document worker's memory (ARCHITECTURE.md, "Evidence", says how it was measured). */
export const DOCUMENT_WORKER_MEMORY_MB = 1536;

export interface TFunctionsProps {
  config: TStageConfig;
  storage: Storage;
  api: Api;
  /** The front door (edge.ts): the links every function writes are on it. */
  edge: Edge;
  keys: EvidenceAndKeys;
  queues: QueuesAndWorkers;
}

/** Made in the stack's own scope, so logical IDs stay as they were (see Storage). */
export class Functions implements TWorkers {
  /** The endpoint functions, by the name the route table (infra/api-routes.ts) gives them. */
  readonly endpoints: Record<TFunctionName, ApiFunction>;
  readonly dispatcher: ApiFunction;
  readonly sweeper: ApiFunction;
  readonly relay: ApiFunction;
  readonly scheduler: ApiFunction;
  readonly bulkWorker: ApiFunction;
  readonly notifier: ApiFunction;
  readonly documentWorker: ApiFunction;

  constructor(stack: Stack, props: TFunctionsProps) {
    const { config, storage, api, edge, keys, queues } = props;
    const { table, bucket } = storage;
    const shared = storage.env;
    const { publishEnv, webhookEnv, bulkEnv } = queues;
    const lambda = (id: string, p: Omit<ApiFunctionProps, 'config'>) =>
      new ApiFunction(stack, id, { ...p, config });
    // Keyed endpoint functions read their usage plan for the X-RateLimit-* headers of every
    // answer (shared/http/api-handler.ts); the public signing function has no key to report on.
    const keyed = new Set<TFunctionName>(API_ROUTES.map((r) => r.fn));
    const endpoint = (
      id: string,
      name: TFunctionName,
      description: string,
      env: Record<string, string> = {},
    ) => {
      const { usagePlanId } = api.usagePlan;
      const environment = {
        ...shared,
        USAGE_PLAN_ID: usagePlanId,
        PUBLIC_BASE_URL: edge.publicBaseUrl,
        // Behind CloudFront the caller's address is in this header (edge.ts), not the source IP.
        VIEWER_ADDRESS_HEADER,
        ...env,
      };
      const fn = lambda(id, { name, description, environment });
      if (keyed.has(name)) fn.grantUsagePlanRead(api.usagePlan);
      return fn;
    };
    // The two functions that publish bundle outboxes (the relay from the table's stream, the
    // sweeper what the relay left): they queue the jobs, and of the table read the bundle and its
    // account's webhooks, add webhook events and mark them and the outbox done, never deleting an
    // item. A function that changes a bundle only writes its outbox, so none other may send to
    // those queues.
    const publishing = (fn: ApiFunction) => {
      fn.grantTable(table, 'publish');
      queues.grantPublish(fn);
      return fn;
    };

    const webhooks = endpoint('WebhooksFunction', 'webhooks', 'Webhooks: /api/v2/webhooks/', {
      SECRETS_KEY_ID: keys.secretsKey.keyArn,
      ...webhookEnv,
    });
    webhooks.grantTable(table, 'readWrite');
    webhooks.grantSecretsKey(keys.secretsKey);
    webhooks.grantSend(queues.webhookQueue);

    this.dispatcher = lambda('WebhookDispatcherFunction', {
      name: 'webhook-dispatcher',
      description: 'Delivers webhook events from the webhook-deliveries queue',
      environment: { ...shared, SECRETS_KEY_ID: keys.secretsKey.keyArn, ...webhookEnv },
      // Every call ends within 10 s and a batch's calls run side by side.
      timeout: Duration.seconds(30),
      reservedConcurrency: config.webhookDispatcherConcurrency,
    });
    this.dispatcher.grantTable(table, 'readWrite');
    this.dispatcher.grantSecretsKey(keys.secretsKey);

    // Fed by the table's stream (queues-and-workers.ts wires it): publishes each outbox written.
    this.relay = publishing(
      lambda('OutboxRelayFunction', {
        name: 'outbox-relay',
        description: "Publishes a bundle's webhook events, messages and evidence jobs once written",
        environment: { ...shared, ...publishEnv },
        timeout: Duration.seconds(60),
      }),
    );

    this.sweeper = publishing(
      lambda('OutboxSweeperFunction', {
        name: 'outbox-sweeper',
        description: 'Publishes what the outbox relay left in a bundle outbox',
        environment: { ...shared, ...publishEnv },
        timeout: Duration.seconds(60),
      }),
    );

    // Reminders, expiry and retention: its changes are published like any other, by the relay.
    this.scheduler = lambda('SchedulerFunction', {
      name: 'scheduler',
      description: 'Expires bundles, sends the automatic reminders and deletes documents by policy when due',
      environment: shared,
      timeout: Duration.minutes(2),
    });
    this.scheduler.grantTable(table, 'readWrite');
    this.scheduler.grantBucketErase(bucket);

    // Persons changes reach the bundles they are linked to; the relay publishes those changes.
    const persons = endpoint('PersonsFunction', 'persons', 'Persons: /api/v2/persons/');
    persons.grantTable(table, 'readWrite');

    const account = endpoint(
      'AccountFunction',
      'account',
      "Rate-limit status and the account's settings: /api/v2/rate_limit/, account/, api-keys/, signing-brands/",
      queues.documentsEnv,
    );
    account.grantTable(table, 'readWrite');
    // An account's export: queued for the document worker, fetched by a link presigned here.
    account.grantSend(queues.documentJobs);
    account.grantExportsRead(storage);
    // An API key made by a user works only once the usage plan knows it; revoking deletes it.
    account.grantUsageKeyCreate(api.usagePlan);

    // Bulk sends: the bundles function queues a batch's first chunk, the bulk worker the rest.
    const bundles = endpoint('BundlesFunction', 'bundles', 'Bundles: /api/v2/bundles/', bulkEnv);
    bundles.grantTable(table, 'readWrite');
    bundles.grantBucket(storage, 'readWrite');
    bundles.grantSend(queues.bulkJobs);

    this.bulkWorker = lambda('BulkWorkerFunction', {
      name: 'bulk-worker',
      description: 'Creates the bundles of bulk sends, a chunk of rows at a time, at the API throttle pace',
      environment: {
        ...shared,
        ...bulkEnv,
        ...webhookEnv,
        BULK_ROWS_PER_SECOND: String(bulkRowsPerSecond(config.rateLimits.throttleRatePerSecond)),
      },
      // Below the queue's visibility timeout, as an SQS event source requires.
      timeout: Duration.seconds(QUEUES.bulkJobs.visibilityTimeoutSeconds - 60),
    });
    this.bulkWorker.grantTable(table, 'readWrite');
    this.bulkWorker.grantBucket(storage, 'readWrite');
    // A batch's bulk_completed event goes straight to the deliveries queue (no bundle outbox).
    this.bulkWorker.grantSend(queues.webhookQueue);
    this.bulkWorker.grantSend(queues.bulkJobs);

    // Document templates: their items and their PDFs (bundles made from one reuse its PDF).
    // Its doc_template_* webhook events go straight to the deliveries queue (no bundle outbox).
    const templates = endpoint(
      'TemplatesFunction',
      'templates',
      'Document templates: /api/v2/templates/',
      webhookEnv,
    );
    templates.grantTable(table, 'readWrite');
    templates.grantBucket(storage, 'readWrite');
    templates.grantSend(queues.webhookQueue);

    const packets = endpoint('PacketsFunction', 'packets', 'Packets: /api/v2/packets/');
    packets.grantTable(table, 'readWrite');
    // Read only: a Certificate of Evidence is handed out as a presigned link.
    packets.grantBucket(storage, 'read');

    // Messages to people; its queue, SES and SMS rights come with its queue (queues-and-workers.ts).
    this.notifier = lambda('NotificationsWorkerFunction', {
      name: 'notifications-worker',
      description: 'Emails and texts signers and senders from the notifications queue; records bounces',
      environment: {
        ...shared,
        PUBLIC_BASE_URL: edge.publicBaseUrl,
        MAIL_FROM: queues.mailFrom,
        SES_CONFIGURATION_SET: queues.mailConfigurationSet.configurationSetName,
        // For ChangeMessageVisibility, which schedules a failed job's retry.
        NOTIFICATIONS_QUEUE_URL: queues.notifications.queueUrl,
        // How long the signed-copy links in documents-ready messages work.
        COPY_LINK_DAYS: String(config.copyLinkDays),
      },
      // Below the queue's visibility timeout, as an SQS event source requires.
      timeout: Duration.seconds(Math.min(30, QUEUES.notifications.visibilityTimeoutSeconds - 10)),
    });
    this.notifier.grantTable(table, 'readWrite');
    // A documents-ready email may carry the signed copies themselves (shared/domain/evidence/copy-link.ts).
    this.notifier.grantBucket(storage, 'read');

    // The public pages and their APIs, none with an API key: signing (/sign, link and session
    // tokens), template preparation (/prepare), smart links (/portal), /verify and Stripe's webhook.
    const publicPages = endpoint(
      'PublicPagesFunction',
      'public-pages',
      'Public pages: signing (/sign), /prepare, /portal, /verify, /payments',
      webhookEnv,
    );
    publicPages.grantTable(table, 'readWrite');
    publicPages.grantBucket(storage, 'readWrite');
    // A template saved at /prepare fires doc_template_updated straight to the deliveries queue
    // (no bundle outbox), as the templates function does.
    publicPages.grantSend(queues.webhookQueue);
    publicPages.fn.addEnvironment('STRIPE_SECRET_ID', keys.stripeSecret.secretArn);
    keys.stripeSecret.grantRead(publicPages.fn);

    // Envelope templates: its own items only (and their smart links, which name the public stage).
    const envelopeTemplates = endpoint(
      'EnvelopeTemplatesFunction',
      'envelope-templates',
      'Envelope templates: /api/v2/envelope-templates/',
    );
    envelopeTemplates.grantTable(table, 'readWrite');
    // SMS codes go to the signer's phone: SNS publishes to a phone number with no topic, which
    // IAM can only scope by denying topic ARNs, so this allows Publish to phone numbers only.
    publicPages.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        notResources: [`arn:${stack.partition}:sns:*:*:*`],
      }),
    );

    // The MCP server for AI agents (ARCHITECTURE.md, "AI agents (MCP)"): its tools call the public
    // API at the stage URL with the caller's key, as any client does, so it is given no table,
    // bucket, queue or usage plan of its own: only PUBLIC_BASE_URL.
    const mcp = endpoint('McpFunction', 'mcp', 'MCP server for AI agents: /mcp (calls the public API)');

    // Evidence (ARCHITECTURE.md, "Evidence"): draws and seals the final documents and
    // certificates from the documentJobs queue, with the seal of evidence-and-keys.ts.
    this.documentWorker = lambda('DocumentWorkerFunction', {
      name: 'document-worker',
      description: 'Draws and seals final documents, certificates of evidence and interim files',
      environment: {
        ...shared,
        // Its own queue, whose failed jobs it puts off (ChangeMessageVisibility).
        ...queues.documentsEnv,
        ...keys.sealEnv,
        // Seals are stamped by these (B-T) and fail rather than go without; none: B-B.
        ...(config.tsaUrls.length > 0
          ? { TSA_URLS: config.tsaUrls.join(' '), PADES_LEVEL: config.padesLevel }
          : {}),
      },
      // PDFs of up to 25 MB (originals, their stamped and sealed copies) sit in memory at once;
      // memory also buys the CPU that drawing and hashing take.
      memorySize: DOCUMENT_WORKER_MEMORY_MB,
      // Below the queue's visibility timeout, as an SQS event source requires, and below the
      // job's lease (FINAL_LEASE_SECONDS), so a run that times out never outlives its lease.
      timeout: Duration.seconds(QUEUES.documentJobs.visibilityTimeoutSeconds - 30),
    });
    keys.grantTimestampCredentials(this.documentWorker);
    this.documentWorker.grantTable(table, 'readWrite');
    // readWrite covers an export's multipart upload too: its calls are s3:PutObject, and a
    // failed one is aborted (s3:AbortMultipartUpload).
    // It writes accounts' export archives in parts (shared/adapters/s3/blob-streams.ts).
    this.documentWorker.grantBucket(storage, 'readWrite', true);
    keys.grantSealing(this.documentWorker);

    // The console's sign-in (/console/api): links by email, sessions, the security log, and each
    // account's console usage key in the usage plan (the key that counts its sessions' requests),
    // and single sign-on, which opens the account's sealed client secret with the secrets key;
    // and the admin API of an account's people (/users, /invitations, /teams, /security_log),
    // which mails invitations. A sign-in request is queued for the notifications worker, which
    // looks the address up and mails the link after the answer.
    const consoleFn = endpoint(
      'ConsoleFunction',
      'console',
      'Console sign-in and sessions (/console/api); users, invitations, teams, security log',
      {
        MAIL_FROM: queues.mailFrom,
        SES_CONFIGURATION_SET: queues.mailConfigurationSet.configurationSetName,
        SECRETS_KEY_ID: keys.secretsKey.keyArn,
        NOTIFICATIONS_QUEUE_URL: queues.notifications.queueUrl,
      },
    );
    consoleFn.grantTable(table, 'readWrite');
    consoleFn.grantSecretsKey(keys.secretsKey);
    queues.grantSendMail(consoleFn);
    consoleFn.grantSend(queues.notifications);
    consoleFn.grantUsageKeyCreate(api.usagePlan);

    this.endpoints = {
      persons,
      account,
      bundles,
      packets,
      templates,
      webhooks,
      'public-pages': publicPages,
      'envelope-templates': envelopeTemplates,
      mcp,
      console: consoleFn,
    };
  }
}
