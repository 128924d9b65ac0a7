// Idempotency-Key's semantics, once for every POST, PUT and PATCH of the keyed API: the first
// request with a key claims it and does the work; a retry with the same key and request gets the
// first answer again, without the work; another request under the same key is a 422.
import { randomUUID } from 'node:crypto';
import type { TIdempotencyClaim, TIdempotencyStore, TStoredAnswer } from '#shared/domain/ports/idempotency';
import type { TLogger } from '#shared/logger';
import { IdempotencyInFlightError, IdempotencyKeyReusedError } from './errors';
import { REPLAYED_HEADER } from './idempotency-key';

/** How long an answer is kept for retries. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim at work holds its key when its invocation's deadline is unknown: longer than
 * any request may run (API Gateway gives up after 29 s, the API functions' timeout is within it).
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
/**
 * A claim whose invocation has a deadline holds its key until that deadline and this much more:
 * a Lambda is stopped at its deadline, so past it the claim's request is dead and a retry may
 * take the key over at once instead of waiting out a minute. A request that does run on (the
 * local runtime cannot stop one) may then meet its retry doing the same work, which is why the
 * creates derive their new ids from the request (TRequest.retrySeed): both make the same item.
 */
export const IDEMPOTENCY_LOCK_GRACE_MS = 2 * 1000;
/** How long a retry waits for the first request's answer before answering 409 in flight. */
export const IN_FLIGHT_WAIT_MS = 10 * 1000;
/** A waiting retry answers 409 this long before its own deadline rather than time out with a 500. */
const WAIT_MARGIN_MS = 500;

/**
 * Answers worth giving again: everything below 500 but 429. A 5xx or a throttle says "try later",
 * so the key is freed and a retry does the work; a 4xx is the request's own answer and stays so.
 */
export const isKeptAnswer = (status: number) => status < 500 && status !== 429;

export interface TIdempotentDeps {
  store: TIdempotencyStore;
  log: TLogger;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `work` at most once per account and key. `work` answers every outcome it means (its 4xx
 * included) and throws only what should not be kept; a kept answer comes back to retries with
 * `Idempotent-Replayed: true`. A retry arriving while the first is at work waits for its answer
 * (up to IN_FLIGHT_WAIT_MS, and never past its own deadline), then answers 409 `idempotency_in_flight` with Retry-After: the
 * client gets the real answer in one round trip in the usual case (a retry after a timeout), and
 * a Lambda never idles long on another's work.
 */
export async function answerIdempotently(
  deps: TIdempotentDeps,
  request: {
    accountId: string;
    key: string;
    fingerprint: string;
    /** When the invocation is stopped (epoch ms), if known (the Lambda context's remaining time). */
    deadline?: number;
  },
  work: () => Promise<TStoredAnswer>,
): Promise<TStoredAnswer> {
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? pause;
  const { deadline, ...named } = request;
  const started = now().getTime();
  const waitUntil = Math.min(
    started + IN_FLIGHT_WAIT_MS,
    deadline === undefined ? Number.POSITIVE_INFINITY : deadline - WAIT_MARGIN_MS,
  );
  const owner = randomUUID();
  let delay = 50;
  for (;;) {
    const at = now();
    const claim: TIdempotencyClaim = {
      ...named,
      owner,
      lockedUntil: new Date(
        deadline === undefined ? at.getTime() + IDEMPOTENCY_LOCK_MS : deadline + IDEMPOTENCY_LOCK_GRACE_MS,
      ),
      expiresAt: new Date(at.getTime() + IDEMPOTENCY_WINDOW_MS),
    };
    const held = await deps.store.claim(claim, at);
    if (!held) return runClaimed(deps, claim, work);
    if (held.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedError();
    if (held.state === 'completed') {
      return { ...held.answer, headers: { ...held.answer.headers, [REPLAYED_HEADER]: 'true' } };
    }
    if (at.getTime() >= waitUntil) throw new IdempotencyInFlightError(1);
    await sleep(Math.min(delay, Math.max(0, waitUntil - at.getTime())));
    delay = Math.min(delay * 2, 1000);
  }
}

async function runClaimed(
  deps: TIdempotentDeps,
  claim: TIdempotencyClaim,
  work: () => Promise<TStoredAnswer>,
): Promise<TStoredAnswer> {
  const free = () =>
    deps.store.release(claim).catch((err: Error) => {
      // The claim then lapses by its lock; a retry before that waits, then gets 409.
      deps.log.warn('idempotency claim not released', { error: err.message });
    });
  let answer: TStoredAnswer;
  try {
    answer = await work();
  } catch (err) {
    await free();
    throw err;
  }
  if (!isKeptAnswer(answer.status)) {
    await free();
    return answer;
  }
  try {
    await deps.store.complete(claim, answer);
  } catch (err) {
    // The work is done and answered; a retry will do it again, the lesser harm than failing an
    // answer that succeeded (an answer too large for one item is the likely cause).
    deps.log.error('idempotency answer not kept', { err });
    await free();
  }
  return answer;
}
