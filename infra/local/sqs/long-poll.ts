import type { Queue } from './queue';
import type { Delivery, Registry } from './registry';

export interface ReceiveRequest {
  max: number;
  visibilityTimeout: number;
  waitSeconds: number;
}

/** Resolves after `ms`, when the queue changes, or when the signal aborts, whichever comes first. */
function sleepUntilChange(queue: Queue, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, Math.max(ms, 0));
    const unsubscribe = queue.subscribe(wake);
    signal.addEventListener('abort', wake);
  });
}

/**
 * ReceiveMessage with long polling: returns as soon as at least one message can be delivered (SQS does not
 * wait to fill MaxNumberOfMessages), or empty at the deadline, when the queue is deleted, or when `signal`
 * aborts (server stopping or client gone, so no message is hidden for a caller that will never see it).
 */
export async function receiveWithWait(
  registry: Registry,
  queue: Queue,
  request: ReceiveRequest,
  signal: AbortSignal,
): Promise<Delivery[]> {
  const deadline = Date.now() + request.waitSeconds * 1000;
  for (;;) {
    if (signal.aborted || registry.get(queue.name) !== queue) return [];
    const now = Date.now();
    const deliveries = registry.receive(queue, request.max, request.visibilityTimeout, now);
    if (deliveries.length > 0 || now >= deadline) return deliveries;
    // Delayed or in-flight messages become visible without any event, so sleep no longer than until then.
    const wakeAt = Math.min(deadline, queue.nextVisibleAt(now) ?? deadline);
    await sleepUntilChange(queue, wakeAt - now, signal);
  }
}
