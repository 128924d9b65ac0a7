import { randomUUID } from 'node:crypto';
import { errors, SqsError } from './errors';
import {
  type Input,
  optInt,
  optObjectList,
  optObjectMap,
  optString,
  optStringList,
  optStringMap,
  reqString,
} from './input';
import { receiveWithWait } from './long-poll';
import { md5Hex, md5OfMessageAttributes } from './md5';
import { messageSize, parseMessageAttributes, selectMessageAttributes, validateBody } from './messages';
import { ACCOUNT_ID, type Queue, type StoredMessage } from './queue';
import { KNOWN_ATTRIBUTES, renderConfig } from './queue-attributes';
import type { Delivery, Registry } from './registry';

export interface ActionContext {
  registry: Registry;
  /** Origin clients reach this server at; queue URLs are derived from it, so they follow port changes. */
  baseUrl: string;
  /** Region from the request's SigV4 scope; new queues take their ARN region from it. */
  region: string;
  senderId: string;
  /** Aborts when the server stops or the client disconnects; ends long polls. */
  signal: AbortSignal;
}

export type Action = (input: Input, context: ActionContext) => Input | Promise<Input>;

const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_BATCH_ENTRIES = 10;

const queueUrl = (context: ActionContext, queue: Queue): string =>
  `${context.baseUrl}/${ACCOUNT_ID}/${queue.name}`;

/** Queues are found by the URL's last path segment so URLs stay valid whatever host or port a client used. */
function queueFor(input: Input, context: ActionContext): Queue {
  const url = reqString(input, 'QueueUrl');
  const name = url.split(/[?#]/)[0]!.split('/').filter(Boolean).pop();
  if (!name) throw errors.queueDoesNotExist();
  return context.registry.require(name);
}

function prepareMessage(queue: Queue, entry: Input, context: ActionContext, now: number): StoredMessage {
  const body = reqString(entry, 'MessageBody');
  validateBody(body);
  const delaySeconds = optInt(entry, 'DelaySeconds', 0, 900) ?? queue.config.delaySeconds;
  const attributes = parseMessageAttributes(optObjectMap(entry, 'MessageAttributes'));
  const size = messageSize(body, attributes);
  if (size > queue.config.maximumMessageSize) {
    throw errors.invalidParameterValue(
      `One or more parameters are invalid. Reason: Message must be shorter than ${queue.config.maximumMessageSize} bytes.`,
    );
  }
  return {
    id: randomUUID(),
    body,
    md5OfBody: md5Hex(body),
    attributes,
    senderId: context.senderId,
    sentTimestamp: now,
    visibleAt: now + delaySeconds * 1000,
    receiveCount: 0,
  };
}

function sendResult(message: StoredMessage): Input {
  return {
    MessageId: message.id,
    MD5OfMessageBody: message.md5OfBody,
    MD5OfMessageAttributes: md5OfMessageAttributes(message.attributes),
  };
}

/** Request-level batch checks; SQS rejects the whole call for these rather than failing single entries. */
function batchEntries(input: Input): Array<{ id: string; entry: Input }> {
  const entries = optObjectList(input, 'Entries');
  if (entries.length === 0) throw errors.emptyBatch();
  if (entries.length > MAX_BATCH_ENTRIES) throw errors.tooManyEntries(entries.length);
  const seen = new Set<string>();
  return entries.map((entry) => {
    const id = reqString(entry, 'Id');
    if (!BATCH_ENTRY_ID.test(id)) throw errors.invalidBatchEntryId();
    if (seen.has(id)) throw errors.batchIdsNotDistinct(id);
    seen.add(id);
    return { id, entry };
  });
}

function batchFailure(id: string, error: unknown): Input {
  if (!(error instanceof SqsError)) throw error;
  return { Id: id, SenderFault: error.fault === 'Sender', Code: error.queryCode, Message: error.message };
}

const SYSTEM_ATTRIBUTES: Record<string, (message: StoredMessage) => string | undefined> = {
  SenderId: (message) => message.senderId,
  SentTimestamp: (message) => String(message.sentTimestamp),
  ApproximateReceiveCount: (message) => String(message.receiveCount),
  ApproximateFirstReceiveTimestamp: (message) =>
    message.firstReceiveTimestamp === undefined ? undefined : String(message.firstReceiveTimestamp),
};

function renderDelivery(delivery: Delivery, systemNames: string[], attributeNames: string[]): Input {
  const { message, receiptHandle } = delivery;
  const rendered: Input = {
    MessageId: message.id,
    ReceiptHandle: receiptHandle,
    MD5OfBody: message.md5OfBody,
    Body: message.body,
  };
  const all = systemNames.includes('All');
  const system: Record<string, string> = {};
  for (const [name, read] of Object.entries(SYSTEM_ATTRIBUTES)) {
    const value = all || systemNames.includes(name) ? read(message) : undefined;
    if (value !== undefined) system[name] = value;
  }
  if (Object.keys(system).length > 0) rendered.Attributes = system;
  // The digest covers exactly the attributes returned, which is what SDKs that verify it recompute.
  const attributes = selectMessageAttributes(message.attributes, attributeNames);
  if (Object.keys(attributes).length > 0) {
    rendered.MessageAttributes = attributes;
    rendered.MD5OfMessageAttributes = md5OfMessageAttributes(attributes);
  }
  return rendered;
}

function queueAttributes(queue: Queue, now: number): Record<string, string> {
  const counts = queue.counts(now);
  return {
    QueueArn: queue.arn,
    ApproximateNumberOfMessages: String(counts.visible),
    ApproximateNumberOfMessagesNotVisible: String(counts.inFlight),
    ApproximateNumberOfMessagesDelayed: String(counts.delayed),
    CreatedTimestamp: String(Math.floor(queue.createdAt / 1000)),
    LastModifiedTimestamp: String(Math.floor(queue.lastModifiedAt / 1000)),
    ...renderConfig(queue.config),
  };
}

export const actions: Record<string, Action> = {
  CreateQueue(input, context) {
    const name = reqString(input, 'QueueName');
    const queue = context.registry.create(
      name,
      context.region,
      optStringMap(input, 'Attributes'),
      Date.now(),
    );
    return { QueueUrl: queueUrl(context, queue) };
  },

  GetQueueUrl(input, context) {
    return { QueueUrl: queueUrl(context, context.registry.require(reqString(input, 'QueueName'))) };
  },

  ListQueues(input, context) {
    const prefix = optString(input, 'QueueNamePrefix') ?? '';
    const maxResults = optInt(input, 'MaxResults', 1, 1000);
    const token = optString(input, 'NextToken');
    const after = token === undefined ? undefined : Buffer.from(token, 'base64url').toString('utf8');
    const matching = context.registry
      .list()
      .filter((queue) => queue.name.startsWith(prefix) && (after === undefined || queue.name > after));
    const page = matching.slice(0, maxResults ?? 1000);
    const output: Input = {};
    if (page.length > 0) output.QueueUrls = page.map((queue) => queueUrl(context, queue));
    // Like SQS, pagination only happens when the caller asked for it with MaxResults.
    if (maxResults !== undefined && matching.length > page.length) {
      output.NextToken = Buffer.from(page.at(-1)!.name, 'utf8').toString('base64url');
    }
    return output;
  },

  GetQueueAttributes(input, context) {
    const queue = queueFor(input, context);
    const names = optStringList(input, 'AttributeNames');
    for (const name of names) {
      if (name !== 'All' && !KNOWN_ATTRIBUTES.has(name)) throw errors.invalidAttributeName(name);
    }
    const all = names.includes('All');
    const selected: Record<string, string> = {};
    for (const [name, value] of Object.entries(queueAttributes(queue, Date.now()))) {
      if (all || names.includes(name)) selected[name] = value;
    }
    return Object.keys(selected).length > 0 ? { Attributes: selected } : {};
  },

  SetQueueAttributes(input, context) {
    const queue = queueFor(input, context);
    if (input.Attributes === undefined) throw errors.missingParameter('Attributes');
    context.registry.setAttributes(queue, optStringMap(input, 'Attributes'), Date.now());
    return {};
  },

  DeleteQueue(input, context) {
    context.registry.delete(queueFor(input, context));
    return {};
  },

  PurgeQueue(input, context) {
    queueFor(input, context).purge();
    return {};
  },

  SendMessage(input, context) {
    const queue = queueFor(input, context);
    const message = prepareMessage(queue, input, context, Date.now());
    queue.enqueue(message);
    return sendResult(message);
  },

  SendMessageBatch(input, context) {
    const queue = queueFor(input, context);
    const entries = batchEntries(input);
    const now = Date.now();
    const successful: Input[] = [];
    const failed: Input[] = [];
    const prepared: Array<{ id: string; message: StoredMessage }> = [];
    for (const { id, entry } of entries) {
      try {
        prepared.push({ id, message: prepareMessage(queue, entry, context, now) });
      } catch (error) {
        failed.push(batchFailure(id, error));
      }
    }
    const total = prepared.reduce(
      (sum, { message }) => sum + messageSize(message.body, message.attributes),
      0,
    );
    if (total > queue.config.maximumMessageSize)
      throw errors.batchRequestTooLong(queue.config.maximumMessageSize);
    for (const { id, message } of prepared) {
      queue.enqueue(message);
      successful.push({ Id: id, ...sendResult(message) });
    }
    return { Successful: successful, Failed: failed };
  },

  async ReceiveMessage(input, context) {
    const queue = queueFor(input, context);
    const request = {
      max: optInt(input, 'MaxNumberOfMessages', 1, 10) ?? 1,
      visibilityTimeout: optInt(input, 'VisibilityTimeout', 0, 43_200) ?? queue.config.visibilityTimeout,
      waitSeconds: optInt(input, 'WaitTimeSeconds', 0, 20) ?? queue.config.receiveMessageWaitTimeSeconds,
    };
    // AttributeNames is the deprecated spelling of MessageSystemAttributeNames; SDKs may send either.
    const systemNames = [
      ...optStringList(input, 'AttributeNames'),
      ...optStringList(input, 'MessageSystemAttributeNames'),
    ];
    const attributeNames = optStringList(input, 'MessageAttributeNames');
    const deliveries = await receiveWithWait(context.registry, queue, request, context.signal);
    if (deliveries.length === 0) return {};
    return { Messages: deliveries.map((delivery) => renderDelivery(delivery, systemNames, attributeNames)) };
  },

  DeleteMessage(input, context) {
    queueFor(input, context).delete(reqString(input, 'ReceiptHandle'));
    return {};
  },

  DeleteMessageBatch(input, context) {
    const queue = queueFor(input, context);
    const successful: Input[] = [];
    const failed: Input[] = [];
    for (const { id, entry } of batchEntries(input)) {
      try {
        queue.delete(reqString(entry, 'ReceiptHandle'));
        successful.push({ Id: id });
      } catch (error) {
        failed.push(batchFailure(id, error));
      }
    }
    return { Successful: successful, Failed: failed };
  },

  ChangeMessageVisibility(input, context) {
    const queue = queueFor(input, context);
    const handle = reqString(input, 'ReceiptHandle');
    const timeout = optInt(input, 'VisibilityTimeout', 0, 43_200);
    if (timeout === undefined) throw errors.missingParameter('VisibilityTimeout');
    queue.changeVisibility(handle, timeout, Date.now());
    return {};
  },

  ChangeMessageVisibilityBatch(input, context) {
    const queue = queueFor(input, context);
    const successful: Input[] = [];
    const failed: Input[] = [];
    const now = Date.now();
    for (const { id, entry } of batchEntries(input)) {
      try {
        const handle = reqString(entry, 'ReceiptHandle');
        const timeout = optInt(entry, 'VisibilityTimeout', 0, 43_200);
        if (timeout === undefined) throw errors.missingParameter('VisibilityTimeout');
        queue.changeVisibility(handle, timeout, now);
        successful.push({ Id: id });
      } catch (error) {
        failed.push(batchFailure(id, error));
      }
    }
    return { Successful: successful, Failed: failed };
  },
};

/** Actions that never change state, so they need not trigger a persistence write. */
export const READ_ONLY_ACTIONS: ReadonlySet<string> = new Set([
  'GetQueueUrl',
  'GetQueueAttributes',
  'ListQueues',
]);

/**
 * Changes answered before they are on disk (saved a moment later): a receive lost with the process
 * only makes its messages visible again after a restart, which at-least-once delivery allows. Every
 * other change (a send above all) is answered only once it is on disk, as SQS answers only once
 * it has stored a message: the sender may forget the message as soon as it has the answer.
 */
export const SAVED_LATER_ACTIONS: ReadonlySet<string> = new Set(['ReceiveMessage']);
