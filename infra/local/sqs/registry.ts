import { errors } from './errors';
import { Queue, type StoredMessage } from './queue';
import { applyQueueAttributes, DEFAULT_CONFIG, type QueueConfig, renderConfig } from './queue-attributes';

const QUEUE_NAME = /^[A-Za-z0-9_-]{1,80}$/;

export interface Delivery {
  message: StoredMessage;
  receiptHandle: string;
}

export interface QueueSnapshot {
  name: string;
  region: string;
  createdAt: number;
  lastModifiedAt: number;
  config: QueueConfig;
  messages: StoredMessage[];
}

export interface Snapshot {
  version: 1;
  queues: QueueSnapshot[];
}

const sameConfig = (a: QueueConfig, b: QueueConfig): boolean => {
  const canonical = (config: QueueConfig) => JSON.stringify(Object.entries(renderConfig(config)).sort());
  return canonical(a) === canonical(b);
};

/** All queues of the stand-in; owns what spans queues (redrive, ARNs) and the persisted form. */
export class Registry {
  private readonly queues = new Map<string, Queue>();

  static restore(snapshot: Snapshot | undefined): Registry {
    const registry = new Registry();
    for (const saved of snapshot?.queues ?? []) {
      const queue = new Queue(
        saved.name,
        saved.region,
        { ...DEFAULT_CONFIG, ...saved.config },
        saved.createdAt,
        saved.lastModifiedAt,
      );
      for (const message of saved.messages) queue.messages.set(message.id, message);
      registry.queues.set(queue.name, queue);
    }
    return registry;
  }

  snapshot(): Snapshot {
    return {
      version: 1,
      queues: [...this.queues.values()].map((queue) => ({
        name: queue.name,
        region: queue.region,
        createdAt: queue.createdAt,
        lastModifiedAt: queue.lastModifiedAt,
        config: queue.config,
        messages: [...queue.messages.values()],
      })),
    };
  }

  get(name: string): Queue | undefined {
    return this.queues.get(name);
  }

  require(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw errors.queueDoesNotExist();
    return queue;
  }

  byArn(arn: string): Queue | undefined {
    for (const queue of this.queues.values()) if (queue.arn === arn) return queue;
    return undefined;
  }

  list(): Queue[] {
    return [...this.queues.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  private readonly dlqExists = (arn: string): boolean => this.byArn(arn) !== undefined;

  /** Idempotent as in SQS: same name with matching attributes returns the existing queue. */
  create(name: string, region: string, attributes: Record<string, string>, now: number): Queue {
    if (name.endsWith('.fifo'))
      throw errors.unsupportedOperation('FIFO queues are not supported by the local SQS.');
    if (!QUEUE_NAME.test(name)) {
      throw errors.invalidParameterValue(
        'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length',
      );
    }
    const existing = this.queues.get(name);
    if (existing) {
      const requested = applyQueueAttributes(existing.config, attributes, this.dlqExists);
      if (!sameConfig(requested, existing.config)) {
        throw errors.queueNameExists(
          `A queue already exists with the same name and a different value for attributes.`,
        );
      }
      return existing;
    }
    const config = applyQueueAttributes(DEFAULT_CONFIG, attributes, this.dlqExists);
    const queue = new Queue(name, region, config, now, now);
    this.queues.set(name, queue);
    return queue;
  }

  setAttributes(queue: Queue, attributes: Record<string, string>, now: number): void {
    queue.config = applyQueueAttributes(queue.config, attributes, this.dlqExists);
    queue.lastModifiedAt = now;
    queue.notify();
  }

  delete(queue: Queue): void {
    this.queues.delete(queue.name);
    // Long polls on a deleted queue must return rather than wait for messages that can never arrive.
    queue.notify();
  }

  /**
   * Takes up to `max` visible messages. A message whose next receive would exceed the queue's
   * maxReceiveCount moves to the dead-letter queue instead, with its receive count reset for consumers there.
   */
  receive(queue: Queue, max: number, visibilityTimeout: number, now: number): Delivery[] {
    const deliveries: Delivery[] = [];
    const policy = queue.config.redrivePolicy;
    const deadLetterQueue = policy ? this.byArn(policy.deadLetterTargetArn) : undefined;
    for (const message of queue.visibleMessages(now)) {
      if (deliveries.length >= max) break;
      if (
        policy &&
        deadLetterQueue &&
        deadLetterQueue !== queue &&
        message.receiveCount >= policy.maxReceiveCount
      ) {
        queue.remove(message);
        deadLetterQueue.enqueue({
          ...message,
          visibleAt: now,
          receiveCount: 0,
          firstReceiveTimestamp: undefined,
          receiptToken: undefined,
        });
        continue;
      }
      deliveries.push({ message, receiptHandle: queue.markReceived(message, now, visibilityTimeout) });
    }
    return deliveries;
  }
}
