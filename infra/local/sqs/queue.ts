import { randomUUID } from 'node:crypto';
import { errors } from './errors';
import type { MessageAttributeValue } from './md5';
import type { QueueConfig } from './queue-attributes';

export const ACCOUNT_ID = '000000000000';

export interface StoredMessage {
  id: string;
  body: string;
  md5OfBody: string;
  attributes: Record<string, MessageAttributeValue>;
  senderId: string;
  /** Epoch ms. Kept when a message moves to a dead-letter queue, as SQS does, so retention still counts from the original send. */
  sentTimestamp: number;
  /** Epoch ms before which the message is hidden, by delay or by an in-flight receive. */
  visibleAt: number;
  receiveCount: number;
  firstReceiveTimestamp?: number;
  /** Token of the latest receive; only a receipt handle carrying it may delete the message. */
  receiptToken?: string;
}

export interface Counts {
  visible: number;
  inFlight: number;
  delayed: number;
}

/** Receipt handles are opaque to clients; they name the message and the receive that produced them. */
export function encodeReceiptHandle(messageId: string, token: string): string {
  return Buffer.from(`${messageId}:${token}`, 'utf8').toString('base64url');
}

export function decodeReceiptHandle(handle: string): { messageId: string; token: string } {
  const decoded = /^[A-Za-z0-9_-]+$/.test(handle) ? Buffer.from(handle, 'base64url').toString('utf8') : '';
  const [messageId, token, ...rest] = decoded.split(':');
  if (!messageId || !token || rest.length > 0) throw errors.receiptHandleIsInvalid(handle);
  return { messageId, token };
}

export class Queue {
  /** Insertion order doubles as delivery preference, which gives roughly FIFO behaviour like real SQS mostly does. */
  readonly messages = new Map<string, StoredMessage>();
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly region: string,
    public config: QueueConfig,
    readonly createdAt: number,
    public lastModifiedAt: number,
  ) {}

  get arn(): string {
    return `arn:aws:sqs:${this.region}:${ACCOUNT_ID}:${this.name}`;
  }

  /** Wakes long polls; they re-check the queue themselves, so spurious wake-ups are harmless. */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enqueue(message: StoredMessage): void {
    this.messages.set(message.id, message);
    this.notify();
  }

  /** Retention is enforced lazily, whenever the queue is looked at. */
  prune(now: number): void {
    const cutoff = now - this.config.messageRetentionPeriod * 1000;
    for (const [id, message] of this.messages) {
      if (message.sentTimestamp <= cutoff) this.messages.delete(id);
    }
  }

  counts(now: number): Counts {
    this.prune(now);
    const counts: Counts = { visible: 0, inFlight: 0, delayed: 0 };
    for (const message of this.messages.values()) {
      if (message.visibleAt <= now) counts.visible++;
      else if (message.receiveCount > 0) counts.inFlight++;
      else counts.delayed++;
    }
    return counts;
  }

  /** When the next hidden message becomes visible, so a long poll knows how long it may sleep. */
  nextVisibleAt(now: number): number | undefined {
    let next: number | undefined;
    for (const message of this.messages.values()) {
      if (message.visibleAt > now && (next === undefined || message.visibleAt < next))
        next = message.visibleAt;
    }
    return next;
  }

  visibleMessages(now: number): StoredMessage[] {
    this.prune(now);
    return [...this.messages.values()].filter((message) => message.visibleAt <= now);
  }

  /** Records a receive and returns the new receipt handle; older handles stop working. */
  markReceived(message: StoredMessage, now: number, visibilityTimeout: number): string {
    const token = randomUUID();
    message.receiveCount++;
    message.firstReceiveTimestamp ??= now;
    message.receiptToken = token;
    message.visibleAt = now + visibilityTimeout * 1000;
    return encodeReceiptHandle(message.id, token);
  }

  private current(handle: string): StoredMessage | undefined {
    const { messageId, token } = decodeReceiptHandle(handle);
    const message = this.messages.get(messageId);
    return message?.receiptToken === token ? message : undefined;
  }

  /**
   * SQS documents that deleting with anything but the latest receipt handle "succeeds, but the message
   * will not be deleted", and deleting an already deleted message succeeds too; only malformed handles fail.
   */
  delete(handle: string): void {
    const message = this.current(handle);
    if (message) this.messages.delete(message.id);
  }

  changeVisibility(handle: string, visibilityTimeout: number, now: number): void {
    const message = this.current(handle);
    if (!message) throw errors.receiptHandleExpired(handle);
    if (message.visibleAt <= now) throw errors.messageNotInflight();
    message.visibleAt = now + visibilityTimeout * 1000;
    // A shorter timeout can move the next wake-up earlier than the one long polls are sleeping towards.
    this.notify();
  }

  purge(): void {
    this.messages.clear();
  }

  remove(message: StoredMessage): void {
    this.messages.delete(message.id);
  }
}
