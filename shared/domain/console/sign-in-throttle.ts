import { ThrottledError } from '../errors';
import type { TCounterStore } from '../ports/console';
import { hashToken } from '../tokens';

/**
 * Counts one sign-in attempt against `subject` (a client address, an email address, a passkey) in
 * the current fixed window of `windowMinutes`, and throws ThrottledError (with the seconds left
 * in the window) once `limit` is reached. Counters are named by hashes: the table keeps no
 * address in a key.
 */
export async function takeSignInAttempt(
  deps: { counters: TCounterStore },
  now: Date,
  counter: { kind: string; subject: string; limit: number; windowMinutes: number },
): Promise<void> {
  const windowMs = counter.windowMinutes * 60_000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const windowEnd = new Date(windowStart + windowMs);
  const name = `console-sign-in#${counter.kind}#${hashToken(counter.subject)}#${windowStart}`;
  if (await deps.counters.take(name, counter.limit, windowEnd)) return;
  throw new ThrottledError(Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000)));
}
