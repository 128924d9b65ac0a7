import { errors } from './errors';

export interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

export interface QueueConfig {
  /** Seconds. */
  visibilityTimeout: number;
  delaySeconds: number;
  messageRetentionPeriod: number;
  receiveMessageWaitTimeSeconds: number;
  /** Bytes. */
  maximumMessageSize: number;
  redrivePolicy?: RedrivePolicy;
  /** Attributes SQS accepts that have no local effect (policies, encryption); stored so they read back. */
  passthrough: Record<string, string>;
}

export const DEFAULT_CONFIG: QueueConfig = {
  visibilityTimeout: 30,
  delaySeconds: 0,
  messageRetentionPeriod: 345_600,
  receiveMessageWaitTimeSeconds: 0,
  maximumMessageSize: 262_144,
  passthrough: {},
};

const PASSTHROUGH = new Set([
  'Policy',
  'KmsMasterKeyId',
  'KmsDataKeyReusePeriodSeconds',
  'SqsManagedSseEnabled',
  'RedriveAllowPolicy',
]);

const FIFO_ONLY = new Set(['ContentBasedDeduplication', 'DeduplicationScope', 'FifoThroughputLimit']);

const INTEGER_ATTRIBUTES = {
  VisibilityTimeout: ['visibilityTimeout', 0, 43_200],
  DelaySeconds: ['delaySeconds', 0, 900],
  MessageRetentionPeriod: ['messageRetentionPeriod', 60, 1_209_600],
  ReceiveMessageWaitTimeSeconds: ['receiveMessageWaitTimeSeconds', 0, 20],
  MaximumMessageSize: ['maximumMessageSize', 1_024, 1_048_576],
} as const;

type IntegerAttribute = keyof typeof INTEGER_ATTRIBUTES;

const isIntegerAttribute = (name: string): name is IntegerAttribute =>
  Object.hasOwn(INTEGER_ATTRIBUTES, name);

function parseInteger(name: string, raw: string, min: number, max: number): number {
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw errors.invalidParameterValue(
      `Invalid value for the parameter ${name}. Reason: must be an integer between ${min} and ${max}.`,
    );
  }
  return value;
}

function parseRedrivePolicy(
  raw: string,
  deadLetterQueueExists: (arn: string) => boolean,
): RedrivePolicy | undefined {
  // An empty value is how SetQueueAttributes removes the policy.
  if (raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw errors.invalidParameterValue('Value for parameter RedrivePolicy is invalid. Reason: Invalid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw errors.invalidParameterValue('Value for parameter RedrivePolicy is invalid. Reason: Invalid JSON.');
  }
  const { deadLetterTargetArn, maxReceiveCount } = parsed as Record<string, unknown>;
  if (typeof deadLetterTargetArn !== 'string' || deadLetterTargetArn === '') {
    throw errors.invalidParameterValue(
      'Value for parameter RedrivePolicy is invalid. Reason: Redrive policy does not contain mandatory attribute: deadLetterTargetArn.',
    );
  }
  // The console and CloudFormation send the count as a string, the API docs as a number; SQS accepts both.
  const count =
    typeof maxReceiveCount === 'number' || typeof maxReceiveCount === 'string'
      ? Number(maxReceiveCount)
      : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > 1000) {
    throw errors.invalidParameterValue(
      'Value for parameter RedrivePolicy is invalid. Reason: Invalid value for maxReceiveCount: must be an integer from 1 to 1000.',
    );
  }
  if (!deadLetterQueueExists(deadLetterTargetArn)) {
    throw errors.invalidParameterValue(
      'Value for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.',
    );
  }
  return { deadLetterTargetArn, maxReceiveCount: count };
}

/** Applies CreateQueue/SetQueueAttributes attributes to a config, rejecting what SQS would reject. */
export function applyQueueAttributes(
  base: QueueConfig,
  attributes: Record<string, string>,
  deadLetterQueueExists: (arn: string) => boolean,
): QueueConfig {
  const next: QueueConfig = { ...base, passthrough: { ...base.passthrough } };
  for (const [name, raw] of Object.entries(attributes)) {
    if (isIntegerAttribute(name)) {
      const [field, min, max] = INTEGER_ATTRIBUTES[name];
      next[field] = parseInteger(name, raw, min, max);
    } else if (name === 'RedrivePolicy') {
      const policy = parseRedrivePolicy(raw, deadLetterQueueExists);
      if (policy) next.redrivePolicy = policy;
      else delete next.redrivePolicy;
    } else if (PASSTHROUGH.has(name)) {
      next.passthrough[name] = raw;
    } else if (name === 'FifoQueue') {
      if (raw !== 'false')
        throw errors.unsupportedOperation('FIFO queues are not supported by the local SQS.');
    } else if (FIFO_ONLY.has(name)) {
      throw errors.unsupportedOperation(
        `${name} applies to FIFO queues, which the local SQS does not support.`,
      );
    } else {
      throw errors.invalidAttributeName(name);
    }
  }
  return next;
}

/** The attributes a caller can set, rendered the way GetQueueAttributes returns them. */
export function renderConfig(config: QueueConfig): Record<string, string> {
  const rendered: Record<string, string> = {
    VisibilityTimeout: String(config.visibilityTimeout),
    DelaySeconds: String(config.delaySeconds),
    MessageRetentionPeriod: String(config.messageRetentionPeriod),
    ReceiveMessageWaitTimeSeconds: String(config.receiveMessageWaitTimeSeconds),
    MaximumMessageSize: String(config.maximumMessageSize),
    ...config.passthrough,
  };
  if (config.redrivePolicy) {
    rendered.RedrivePolicy = JSON.stringify({
      deadLetterTargetArn: config.redrivePolicy.deadLetterTargetArn,
      maxReceiveCount: config.redrivePolicy.maxReceiveCount,
    });
  }
  return rendered;
}

export const READ_ONLY_ATTRIBUTES = [
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
] as const;

export const KNOWN_ATTRIBUTES: ReadonlySet<string> = new Set([
  ...READ_ONLY_ATTRIBUTES,
  ...Object.keys(INTEGER_ATTRIBUTES),
  'RedrivePolicy',
  ...PASSTHROUGH,
  // Valid names that a standard queue simply has no value for.
  'FifoQueue',
  ...FIFO_ONLY,
]);
