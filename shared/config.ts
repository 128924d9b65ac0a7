// The one place providers are chosen. On AWS every value comes from the Lambda's environment
// (set by infra/); locally the runtime builds the same object with endpoints of its stand-ins.
import type { TLogLevel } from '#shared/logger';

export interface TConfig {
  stage: string;
  region: string;
  tableName: string;
  bucketName: string;
  /** The documents bucket's customer-managed KMS key; absent, objects keep the bucket default. */
  documentsKeyId?: string;
  usagePlanId: string;
  logLevel: TLogLevel;
  /**
   * The level of the API's access log lines (one per request): 'info' when absent, as on AWS;
   * the local runtime writes them at 'debug', so its start banner is not drowned (`--log-level
   * debug` shows them).
   */
  accessLogLevel?: 'debug' | 'info';
  /** Set only locally: where the stand-ins listen. On AWS the SDK's defaults apply. */
  endpoints: Partial<
    Record<'dynamodb' | 's3' | 'sqs' | 'sesv2' | 'sns' | 'apigateway' | 'kms' | 'secretsmanager', string>
  >;
  /**
   * Which file_url addresses the service may fetch. Absent (as on AWS): https and public
   * addresses only. The local runtime also allows http and loopback, so a sender can serve
   * files from the same machine.
   */
  fetch?: { allowHttp: boolean; allowLoopback: boolean };
  /** Queue URLs by the names of infra/queues.ts (only the functions that send have them). */
  queues?: Record<string, string>;
  /** Where signers open their links: the signing pages are served below it. */
  publicBaseUrl?: string;
  /**
   * The header holding the caller's address, where a front door written by this stack puts it
   * (on AWS the distribution, infra/constructs/edge.ts, whose WAF refuses requests that bypass
   * it); absent (locally): the connection's own address.
   */
  viewerAddressHeader?: string;
  /**
   * How long the authorizer keeps an API key's lookup in memory (on AWS, where API Gateway's own
   * cache is off so that cookie-only console requests reach the authorizer); absent: not kept.
   */
  apiKeyCacheSeconds?: number;
  /**
   * How recoverable secrets (the webhook shared secret) are sealed at rest: the KMS key of
   * SECRETS_KEY_ID on AWS; locally an AES-256 key (base64, 32 bytes) kept in the data folder.
   * Absent: sealing fails, so only the functions that need it get a key.
   */
  secrets?: { kind: 'kms'; keyId: string } | { kind: 'local'; key: string };
  /**
   * Multiplies the webhook retry delays (shared/domain/webhooks/deliver-event.ts); 1 when absent.
   * Only for tests and demos, which cannot wait hours for a retry: e.g. 1/240 turns 4 minutes
   * into 1 second.
   */
  webhookRetryScale?: number;
  /** Rows a second a bulk send creates (bulkRowsPerSecond of the stage's API throttle). */
  bulkRowsPerSecond?: number;
  /**
   * Messages to people (the notifications worker): the sender address (MAIL_FROM, shown with the
   * requester's name) and the SES configuration set that reports bounces (SES_CONFIGURATION_SET).
   */
  mail?: { from: string; configurationSet?: string };
  /**
   * How many days the links to signed copies work (COPY_LINK_DAYS; shared/domain/evidence/copy-link.ts,
   * 30 when absent).
   */
  copyLinkDays?: number;
  /** Multiplies the notification retry delays (tests only); 1 when absent. */
  notificationRetryScale?: number;
  /**
   * Who seals final documents and certificates of evidence. `kms`: a KMS key that never leaves KMS
   * (SEAL_KEY_ID) with its certificate chain in the secret SEAL_CHAIN_SECRET_ID on AWS, or in a
   * folder of the data directory locally (the KMS stand-in holds the key); accounts' own keys and
   * chains are named after `name` (SEAL_NAME; seal-names.ts). Until a chain is installed, the
   * PKCS #12 identity of `fallbackSecretId` (SEAL_SECRET_ID) seals, as deployments did before.
   * `secrets-manager`: that PKCS #12 secret alone. Absent: sealing fails, so only the document
   * worker gets one.
   */
  seal?:
    | { kind: 'secrets-manager'; secretId: string }
    | {
        kind: 'kms';
        keyId: string;
        name: string;
        chains: { kind: 'secrets-manager'; secretId: string } | { kind: 'local'; dir: string };
        fallbackSecretId?: string;
      };
  /**
   * The timestamp authorities (RFC 3161) that stamp every seal, tried in this order: TSA_URLS on
   * AWS (space- or comma-separated URLs), the local TSA stand-in locally. With any, a seal
   * is PAdES B-LTA (or B-T when `level` says so) and fails when none of them gives a valid
   * timestamp; with none, seals are B-B.
   */
  timestamps?: {
    tsas: { url: string; headers?: Record<string, string> }[];
    /**
     * B-LTA (the default): the seal's validation data (DSS) and an archive timestamp follow it;
     * B-T: the seal's timestamp only (PADES_LEVEL).
     */
    level?: 'B-T' | 'B-LTA';
    /** A Secrets Manager secret of headers per TSA URL (TSA_SECRET_ID; tsa-credentials.ts). */
    credentialsSecretId?: string;
  };
  /**
   * Bundle payments: Stripe with its keys in the Secrets Manager secret STRIPE_SECRET_ID
   * (`{"apiKey": "sk_…", "webhookSecret": "whsec_…"}`) on AWS; locally a stand-in provider with a
   * test checkout page, its webhooks signed with `webhookSecret`. Absent: payments cannot start.
   */
  payments?: { kind: 'stripe'; secretId: string } | { kind: 'local'; webhookSecret: string };
  /** Multiplies the document job retry delays (tests only); 1 when absent. */
  documentRetryScale?: number;
  /** Set only locally, for the stand-ins; on AWS the Lambda role's credentials are used. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /**
   * Set only on Lambda (shared/adapters/telemetry/lambda.ts): wraps each AWS SDK client so that
   * its calls show in the invocation's X-Ray trace.
   */
  traceClient?: <T>(client: T) => T;
}

type TEnv = Record<string, string | undefined>;

function required(env: TEnv, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`Missing environment variable ${name}`);
  return v;
}

function sealFromEnv(env: TEnv): Pick<TConfig, 'seal'> {
  if (env.SEAL_KEY_ID) {
    return {
      seal: {
        kind: 'kms',
        keyId: env.SEAL_KEY_ID,
        name: required(env, 'SEAL_NAME'),
        chains: { kind: 'secrets-manager', secretId: required(env, 'SEAL_CHAIN_SECRET_ID') },
        ...(env.SEAL_SECRET_ID ? { fallbackSecretId: env.SEAL_SECRET_ID } : {}),
      },
    };
  }
  return env.SEAL_SECRET_ID ? { seal: { kind: 'secrets-manager', secretId: env.SEAL_SECRET_ID } } : {};
}

export function configFromEnv(env: TEnv = process.env): TConfig {
  const endpoints: TConfig['endpoints'] = {};
  for (const [key, name] of [
    ['dynamodb', 'DYNAMODB_ENDPOINT'],
    ['s3', 'S3_ENDPOINT'],
    ['sqs', 'SQS_ENDPOINT'],
    ['sesv2', 'SES_ENDPOINT'],
    ['sns', 'SNS_ENDPOINT'],
    ['apigateway', 'APIGATEWAY_ENDPOINT'],
    ['kms', 'KMS_ENDPOINT'],
  ] as const) {
    if (env[name]) endpoints[key] = env[name];
  }
  return {
    stage: env.STAGE ?? 'dev',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    tableName: required(env, 'TABLE_NAME'),
    bucketName: env.BUCKET_NAME ?? '',
    ...(env.DOCUMENTS_KEY_ID ? { documentsKeyId: env.DOCUMENTS_KEY_ID } : {}),
    usagePlanId: env.USAGE_PLAN_ID ?? '',
    logLevel: (env.LOG_LEVEL as TLogLevel | undefined) ?? 'info',
    queues: {
      ...(env.NOTIFICATIONS_QUEUE_URL ? { notifications: env.NOTIFICATIONS_QUEUE_URL } : {}),
      ...(env.WEBHOOK_QUEUE_URL ? { webhookDeliveries: env.WEBHOOK_QUEUE_URL } : {}),
      ...(env.DOCUMENTS_QUEUE_URL ? { documentJobs: env.DOCUMENTS_QUEUE_URL } : {}),
      ...(env.BULK_QUEUE_URL ? { bulkJobs: env.BULK_QUEUE_URL } : {}),
    },
    ...(env.WEBHOOK_RETRY_SCALE ? { webhookRetryScale: Number(env.WEBHOOK_RETRY_SCALE) } : {}),
    ...(env.BULK_ROWS_PER_SECOND ? { bulkRowsPerSecond: Number(env.BULK_ROWS_PER_SECOND) } : {}),
    publicBaseUrl: env.PUBLIC_BASE_URL ?? '',
    ...(env.VIEWER_ADDRESS_HEADER ? { viewerAddressHeader: env.VIEWER_ADDRESS_HEADER } : {}),
    ...(Number(env.API_KEY_CACHE_SECONDS) > 0
      ? { apiKeyCacheSeconds: Number(env.API_KEY_CACHE_SECONDS) }
      : {}),
    ...(Number(env.COPY_LINK_DAYS) > 0 ? { copyLinkDays: Number(env.COPY_LINK_DAYS) } : {}),
    ...(env.MAIL_FROM
      ? {
          mail: {
            from: env.MAIL_FROM,
            ...(env.SES_CONFIGURATION_SET ? { configurationSet: env.SES_CONFIGURATION_SET } : {}),
          },
        }
      : {}),
    ...(env.SECRETS_KEY_ID ? { secrets: { kind: 'kms' as const, keyId: env.SECRETS_KEY_ID } } : {}),
    ...(env.STRIPE_SECRET_ID
      ? { payments: { kind: 'stripe' as const, secretId: env.STRIPE_SECRET_ID } }
      : {}),
    ...sealFromEnv(env),
    ...(env.TSA_URLS?.trim()
      ? {
          timestamps: {
            tsas: env.TSA_URLS.trim()
              .split(/[\s,]+/)
              .map((url) => ({ url })),
            ...(env.TSA_SECRET_ID ? { credentialsSecretId: env.TSA_SECRET_ID } : {}),
            ...(env.PADES_LEVEL === 'B-T' ? { level: 'B-T' as const } : {}),
          },
        }
      : {}),
    endpoints,
  };
}
