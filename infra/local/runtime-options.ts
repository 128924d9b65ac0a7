// What the local runtime is started with, and what every local function is built with: their
// own module, so the runtime's parts (stand-ins, workers, API) need not import runtime.ts.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TEmf } from '#shared/adapters/telemetry/metrics';
import type { TTelemetry } from '#shared/adapters/telemetry/telemetry';
import type { TConfig } from '#shared/config';
import type { TSignInLimits } from '#shared/domain/console/request-sign-in-link';
import type { TPortalLimits } from '#shared/domain/envelope-templates/start-portal-signing';
import type { TLogger, TLogLevel } from '#shared/logger';
import type { TFunctionPolicies } from '../iam/function-policies';
import type { TUsagePlanSettings } from './usage-plan';

export interface TRuntimeOptions {
  port?: number;
  /** The interface the service's own port (API and pages) listens on; the stand-ins stay on loopback. */
  host?: string;
  /** Where data lives between restarts; ignored with `memory`. */
  dataDir?: string;
  /** A throwaway run: nothing is written to disk that outlives stop(). */
  memory?: boolean;
  logLevel?: TLogLevel;
  /** The usage plan's numbers; absent ones are the stage's (`--rate-limit` sets the throttle). */
  limits?: Partial<TUsagePlanSettings>;
  /**
   * Requests per client address and window on the public token paths (the stack's WAF rules);
   * default the stage's. Tests, which open many sessions from one address, raise or lower it.
   */
  publicPathLimit?: number;
  authorizerTtlSeconds?: number;
  /**
   * How long an API function may run (ms) before the gateway answers 500 for it, as a Lambda's
   * timeout does; default 29 s, API Gateway's limit. Tests of slow requests lower it.
   */
  functionTimeoutMs?: number;
  /** Fetch file_url documents by the production rules (https, public addresses only), as on AWS. */
  productionFetch?: boolean;
  /** Wraps the DynamoDB client the functions use (the benchmark counts requests with it). */
  instrumentDb?: (db: DynamoDBDocumentClient) => void /**
   * Multiplies the webhook retry delays (4, 12, 36, 108, 324 minutes), for tests and demos that
   * cannot wait: 1/240 makes them 1, 3, 9, 27 and 81 seconds. Default 1, as on AWS.
   */;
  webhookRetryScale?: number;
  /** How often the outbox sweeper runs (ms); default the stack's rate (infra/workers.ts). */
  sweepIntervalMs?: number;
  /** Multiplies the notification retry delays (30 s, 2, 10, 30 min), for tests. Default 1. */
  notificationRetryScale?: number;
  /** How often the scheduler (reminders, expiry) runs (ms); default the stack's rate (infra/workers.ts). */
  schedulerIntervalMs?: number;
  /** Multiplies the document job retry delays (30 s, 2, 10, 30 min), for tests. Default 1. */
  documentRetryScale?: number;
  /**
   * Payments as on AWS: Stripe's adapter, its keys read from this Secrets Manager (a stand-in's
   * endpoint) and secret, instead of the local provider. For tests of the operator's setup.
   */
  stripeKeys?: { secretsManagerEndpoint: string; secretId: string };
  /** Smaller smart link limits (bundles and page loads per address, per template), for tests. */
  portalLimits?: TPortalLimits;
  /** Smaller console sign-in limits (links per address and per client address), for tests. */
  signInLimits?: TSignInLimits;
  /**
   * Metrics are off locally unless a collector is given: then every function records them as on
   * Lambda (Powertools' EMF, flushed per invocation) and each EMF object comes here.
   */
  metrics?: (emf: TEmf) => void;
  /**
   * Every AWS call a function makes is checked against its role in the stack's template
   * (infra/generated/function-policies.json) and fails with AccessDenied when not allowed, as
   * on AWS; on unless false.
   */
  iamCheck?: boolean;
  /** Other roles than the committed ones, for tests of the check itself. */
  iamPolicies?: TFunctionPolicies;
}

/** What every local function is built with. */
export interface TLocalDeps {
  config: TConfig;
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  log: TLogger;
  /** A function's logger and, with a collector, its metrics (the service dimension is its name). */
  telemetry: (fn: string) => TTelemetry;
}
