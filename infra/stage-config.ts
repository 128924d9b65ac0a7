// Every per-stage number in one place. Kept free of aws-cdk-lib imports on purpose: the local
// runtime and the benchmark read the same values (quota, throttle, authorizer cache TTL) without
// loading the CDK, so local and AWS enforce identical limits.
import { COPY_LINK_DAYS } from '#shared/domain/evidence/copy-link';
import type { TLogLevel } from '#shared/logger';

export interface TRateLimits {
  /** Requests per key per UTC day (API Gateway usage plans count quotas per DAY, WEEK or MONTH). */
  quotaPerDay: number;
  /** Steady-state requests per second per key (token bucket refill rate). */
  throttleRatePerSecond: number;
  /** Token bucket size per key. */
  throttleBurst: number;
}

/**
 * What one client address may send to the public token paths (signer sessions, preparation
 * links, the verification check; infra/public-path-limits.ts names them): per path group and
 * window. The stack's WAF enforces it on AWS, the local gateway locally.
 */
export interface TPublicPathLimits {
  /** Requests per client address and path group in one window; WAF counts no fewer than 10. */
  requestsPerWindow: number;
  /** WAF's evaluation window: 60, 120, 300 or 600 seconds. */
  windowSeconds: 60 | 120 | 300 | 600;
}

export interface TStageConfig {
  stage: string;
  logLevel: TLogLevel;
  /** Days; must be one of CloudWatch Logs' allowed retention values (checked below). */
  logRetentionDays: number;
  rateLimits: TRateLimits;
  publicPathLimits: TPublicPathLimits;
  /** How long API Gateway reuses an authorizer answer for the same Authorization header. */
  authorizerCacheTtlSeconds: number;
  /**
   * Protects the data: DynamoDB deletion protection, RETAIN removal policies and stack termination
   * protection. Off in `dev` so a developer's stack can be destroyed and recreated freely.
   */
  deletionProtection: boolean;
  /** API Gateway access logs. Needs the account-wide API Gateway CloudWatch role, see constructs/api.ts. */
  accessLogging: boolean;
  /**
   * Reserved concurrency of the webhook dispatcher: a flood of webhook retries can never take the
   * Lambda concurrency the API needs, and receivers are never hit by more calls at once than this
   * times the batch size. Reserving needs the account's unreserved pool to stay at 100 or more.
   */
  webhookDispatcherConcurrency: number;
  /**
   * The RFC 3161 timestamp authorities every seal is stamped by, in the order tried (http(s) URLs).
   * None (the default): seals are PAdES B-B, the signing time the service's own clock's word.
   */
  tsaUrls: string[];
  /**
   * What a seal is when there are authorities: B-LTA (the default; the seal's validation data and
   * an archive timestamp follow it) or B-T (its own timestamp only).
   */
  padesLevel: TPadesLevel;
  /**
   * The WAF web ACL on the API stage (AWS's managed common and known-bad-input rules, and the
   * per-address limits on the public token paths). Off only for a stage that fronts the API
   * with a WAF of its own: without it, nothing limits guessing at the public paths per address.
   */
  waf: boolean;
  /**
   * The API and the public pages on a domain of the operator's (signing links, smart links and
   * Link headers use it): with the ARN of an ACM certificate for it in the stack's region, or a
   * Route 53 hosted zone that the stack validates a new certificate in and adds the record to.
   */
  customDomain?: TCustomDomain;
  /** Where alarms are mailed (an email subscription of the alarm topic); none: subscribe yourself. */
  alarmEmail?: string;
  /**
   * How many days the links to signed copies in the documents-ready messages work (the
   * notifications worker's COPY_LINK_DAYS).
   */
  copyLinkDays: number;
  /**
   * How a deploy moves each function's live alias to its new version (constructs/deployments.ts):
   * 10 % of invocations for 5 minutes then all (the default), 10 % more every minute, or all at
   * once. Whichever, CodeDeploy rolls the alias back by itself when one of the function's alarms
   * (its errors, its throttles, the API's 5xx rate) fires during the move.
   */
  deployment: TDeploymentStyle;
}

export const DEPLOYMENT_STYLES = [
  'canary-10-percent-5-minutes',
  'linear-10-percent-every-minute',
  'all-at-once',
] as const;
export type TDeploymentStyle = (typeof DEPLOYMENT_STYLES)[number];

export type TCustomDomain =
  | { domainName: string; certificateArn: string }
  | { domainName: string; hostedZoneId: string; hostedZoneName: string };

export const PADES_LEVELS = ['B-T', 'B-LTA'] as const;
export type TPadesLevel = (typeof PADES_LEVELS)[number];

/** The token bucket holds this many seconds of the sustained rate (see throttleFor). */
export const BURST_SECONDS = 10;

/**
 * BlueInk publishes 2,000 requests an hour per account and no per-second limit; API Gateway
 * quotas have no hourly period, so the hourly figure is spread over a day (2,000 × 24). The
 * throttle only stops a runaway client: 50 requests a second with a bucket of 500 (DocuSign
 * allows 500 per 30 s) lets a client's test run or batch job through untouched.
 */
export const DEFAULT_RATE_LIMITS: TRateLimits = {
  quotaPerDay: 48_000,
  throttleRatePerSecond: 50,
  throttleBurst: 50 * BURST_SECONDS,
};

/**
 * A throttle of `ratePerSecond` as the local runtime's `--rate-limit` sets it: the bucket scales
 * with the rate (ten seconds' worth), so a small rate shows a client's 429 handling quickly and
 * the default rate gives the default burst.
 */
export function throttleFor(ratePerSecond: number): { rateLimit: number; burstLimit: number } {
  return { rateLimit: ratePerSecond, burstLimit: Math.max(1, Math.ceil(ratePerSecond * BURST_SECONDS)) };
}

/**
 * A signer opens a session once per page load and a preparer makes a handful of calls; 100 a
 * minute per address is far above either and far below what guessing tokens would need.
 */
export const DEFAULT_PUBLIC_PATH_LIMITS: TPublicPathLimits = { requestsPerWindow: 100, windowSeconds: 60 };

export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 60;

// CloudWatch Logs rejects any other value (and CDK's RetentionDays enum holds exactly these).
const ALLOWED_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const BASE: Omit<TStageConfig, 'stage'> = {
  logLevel: 'info',
  logRetentionDays: 30,
  rateLimits: DEFAULT_RATE_LIMITS,
  publicPathLimits: DEFAULT_PUBLIC_PATH_LIMITS,
  authorizerCacheTtlSeconds: DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
  deletionProtection: true,
  accessLogging: false,
  webhookDispatcherConcurrency: 10,
  tsaUrls: [],
  padesLevel: 'B-LTA',
  waf: true,
  copyLinkDays: COPY_LINK_DAYS,
  deployment: 'canary-10-percent-5-minutes',
};

const PER_STAGE: Record<string, Partial<Omit<TStageConfig, 'stage'>>> = {
  dev: { logLevel: 'debug', logRetentionDays: 7, deletionProtection: false, webhookDispatcherConcurrency: 2 },
  prod: { logRetentionDays: 365 },
};

/** Reads a context value; `app.node.tryGetContext` fits, so does a plain object lookup. */
export type TContextReader = (key: string) => unknown;

/** Context keys (`cdk synth -c key=value` or cdk.json "context") that override the stage's numbers. */
export const CONTEXT_KEYS = {
  quotaPerDay: 'quotaPerDay',
  throttleRatePerSecond: 'throttleRate',
  throttleBurst: 'throttleBurst',
  publicPathLimit: 'publicPathLimit',
  logRetentionDays: 'logRetentionDays',
  authorizerCacheTtlSeconds: 'authorizerCacheTtl',
  logLevel: 'logLevel',
  accessLogging: 'accessLogging',
  webhookDispatcherConcurrency: 'webhookConcurrency',
  tsaUrls: 'tsaUrls',
  padesLevel: 'padesLevel',
  alarmEmail: 'alarmEmail',
  waf: 'waf',
  copyLinkDays: 'copyLinkDays',
  deployment: 'deployment',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  hostedZoneId: 'hostedZoneId',
  hostedZoneName: 'hostedZoneName',
} as const;

const LOG_LEVELS: readonly TLogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

// `-c key=value` always arrives as a string, cdk.json values keep their JSON type: accept both.
function numberFrom(read: TContextReader, key: string, fallback: number, min: number, max: number): number {
  const raw = read(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(
      `Context "${key}" must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function booleanFrom(read: TContextReader, key: string, fallback: boolean): boolean {
  const raw = read(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`Context "${key}" must be true or false, got ${JSON.stringify(raw)}`);
}

function logLevelFrom(read: TContextReader, key: string, fallback: TLogLevel): TLogLevel {
  const raw = read(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  const found = LOG_LEVELS.find((level) => level === raw);
  if (!found) throw new Error(`Context "${key}" must be one of ${LOG_LEVELS.join(', ')}`);
  return found;
}

function oneOf<T extends string>(read: TContextReader, key: string, allowed: readonly T[], fallback: T): T {
  const raw = read(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  const found = allowed.find((value) => value === raw);
  if (!found)
    throw new Error(`Context "${key}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  return found;
}

/** Space- or comma-separated http(s) URLs (a JSON list from cdk.json too). */
function urlsFrom(read: TContextReader, key: string, fallback: string[]): string[] {
  const raw = read(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  const list = Array.isArray(raw)
    ? raw.map(String)
    : String(raw)
        .trim()
        .split(/[\s,]+/);
  for (const url of list) {
    let ok = false;
    try {
      const u = new URL(url);
      // http is allowed: a token is signed and bound to our nonce and digest, and only a digest is sent.
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      ok = false;
    }
    // Credentials never go into context, which ends up in the template and the Lambda's environment.
    if (!ok)
      throw new Error(
        `Context "${key}" must list http(s) URLs without credentials, got ${JSON.stringify(url)}`,
      );
  }
  return list;
}

// The stage becomes part of the stack, function and API stage names, which share this alphabet.
const STAGE_NAME = /^[a-z][a-z0-9-]{0,19}$/;

export function stageConfig(stage: string, read: TContextReader = () => undefined): TStageConfig {
  if (!STAGE_NAME.test(stage)) {
    throw new Error(`Stage "${stage}" must match ${STAGE_NAME} (it is used in resource names)`);
  }
  const base = { ...BASE, ...PER_STAGE[stage] };
  const rate = base.rateLimits;
  const logRetentionDays = numberFrom(read, CONTEXT_KEYS.logRetentionDays, base.logRetentionDays, 1, 3653);
  if (!(ALLOWED_RETENTION_DAYS as readonly number[]).includes(logRetentionDays)) {
    throw new Error(`Context "logRetentionDays" must be one of ${ALLOWED_RETENTION_DAYS.join(', ')}`);
  }
  const throttleRatePerSecond = numberFrom(
    read,
    CONTEXT_KEYS.throttleRatePerSecond,
    rate.throttleRatePerSecond,
    1,
    10_000,
  );
  return {
    stage,
    logLevel: logLevelFrom(read, CONTEXT_KEYS.logLevel, base.logLevel),
    logRetentionDays,
    rateLimits: {
      quotaPerDay: numberFrom(read, CONTEXT_KEYS.quotaPerDay, rate.quotaPerDay, 1, 1_000_000_000),
      throttleRatePerSecond,
      throttleBurst: numberFrom(read, CONTEXT_KEYS.throttleBurst, rate.throttleBurst, 1, 5_000),
    },
    publicPathLimits: {
      // WAF's rate-based rules accept 10 to 2,000,000,000.
      requestsPerWindow: numberFrom(
        read,
        CONTEXT_KEYS.publicPathLimit,
        base.publicPathLimits.requestsPerWindow,
        10,
        2_000_000_000,
      ),
      windowSeconds: base.publicPathLimits.windowSeconds,
    },
    // API Gateway accepts 0 (no caching) to 3600 seconds.
    authorizerCacheTtlSeconds: numberFrom(
      read,
      CONTEXT_KEYS.authorizerCacheTtlSeconds,
      base.authorizerCacheTtlSeconds,
      0,
      3600,
    ),
    deletionProtection: base.deletionProtection,
    accessLogging: booleanFrom(read, CONTEXT_KEYS.accessLogging, base.accessLogging),
    webhookDispatcherConcurrency: numberFrom(
      read,
      CONTEXT_KEYS.webhookDispatcherConcurrency,
      base.webhookDispatcherConcurrency,
      1,
      1000,
    ),
    tsaUrls: urlsFrom(read, CONTEXT_KEYS.tsaUrls, base.tsaUrls),
    padesLevel: oneOf(read, CONTEXT_KEYS.padesLevel, PADES_LEVELS, base.padesLevel),
    waf: booleanFrom(read, CONTEXT_KEYS.waf, base.waf),
    // A signed copy is kept for years; a link to it need not live longer than one (3660 days).
    copyLinkDays: numberFrom(read, CONTEXT_KEYS.copyLinkDays, base.copyLinkDays, 1, 3660),
    deployment: oneOf(read, CONTEXT_KEYS.deployment, DEPLOYMENT_STYLES, base.deployment),
    ...emailFrom(read, CONTEXT_KEYS.alarmEmail),
    ...customDomainFrom(read),
  };
}

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/;

function customDomainFrom(read: TContextReader): { customDomain?: TCustomDomain } {
  const text = (key: string) => {
    const v = read(key);
    return v === undefined || v === null || v === '' ? undefined : String(v).trim();
  };
  const domainName = text(CONTEXT_KEYS.domainName)?.toLowerCase();
  const certificateArn = text(CONTEXT_KEYS.certificateArn);
  const hostedZoneId = text(CONTEXT_KEYS.hostedZoneId);
  const hostedZoneName = text(CONTEXT_KEYS.hostedZoneName)?.toLowerCase().replace(/\.$/, '');
  if (!domainName) {
    if (certificateArn || hostedZoneId || hostedZoneName)
      throw new Error('Context "domainName" is needed with a certificate or a hosted zone');
    return {};
  }
  if (!DOMAIN_NAME.test(domainName))
    throw new Error(`Context "domainName" must be a host name such as sign.example.org, got "${domainName}"`);
  if (certificateArn) {
    if (!CERTIFICATE_ARN.test(certificateArn))
      throw new Error('Context "certificateArn" must be the ARN of an ACM certificate (arn:aws:acm:…)');
    return { customDomain: { domainName, certificateArn } };
  }
  if (hostedZoneId && hostedZoneName) {
    if (domainName !== hostedZoneName && !domainName.endsWith(`.${hostedZoneName}`))
      throw new Error(`Context "domainName" ${domainName} is not in the hosted zone ${hostedZoneName}`);
    return { customDomain: { domainName, hostedZoneId, hostedZoneName } };
  }
  throw new Error(
    'Context "domainName" needs "certificateArn" (an ACM certificate for it in the stack\'s region) or "hostedZoneId" and "hostedZoneName" (a Route 53 zone to validate a new one in)',
  );
}

// An address, not a list or a name: SNS mails exactly what it is given.
const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

function emailFrom(read: TContextReader, key: string): { alarmEmail?: string } {
  const value = read(key);
  if (value === undefined || value === '') return {};
  if (typeof value !== 'string' || !EMAIL.test(value.trim())) {
    throw new Error(`Context "${key}" must be one email address, e.g. ops@example.org`);
  }
  return { alarmEmail: value.trim() };
}
