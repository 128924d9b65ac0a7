// The records behind `Idempotency-Key`: one per account and key, claimed by the first request
// that names it, holding its answer once it has one (shared/http/idempotent-request.ts).

/** An answer as it goes back on the wire, kept to be given again. */
export interface TStoredAnswer {
  status: number;
  /** The answer's own headers (Location, Content-Type, …); never the request's id. */
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

/** Who holds a key: a request still at work, or the answer the first one gave. */
export type TIdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string }
  | { state: 'completed'; fingerprint: string; answer: TStoredAnswer };

export interface TIdempotencyClaim {
  accountId: string;
  key: string;
  /** The hash of the request's method, path and body bytes: a key names one request only. */
  fingerprint: string;
  /**
   * Who claimed: random per claim, so a request that outlived its lock (its key taken over by a
   * retry) cannot free the retry's claim.
   */
  owner: string;
  /** Until when a claim still at work holds the key; past it a crashed request's claim is taken over. */
  lockedUntil: Date;
  /** When the record ends (the table's TTL; also checked on every read). */
  expiresAt: Date;
}

export interface TIdempotencyStore {
  /**
   * Claims the key with one conditional write: undefined when this request now holds it, else the
   * live record that holds it (an ended record or an abandoned claim never does).
   */
  claim(claim: TIdempotencyClaim, now: Date): Promise<TIdempotencyRecord | undefined>;
  /**
   * Keeps the claim's answer until the claim's `expiresAt`, unless an answer is kept already (a
   * request that outlived its lock and a retry that took over both finish): the first one kept
   * is the one every replay gives.
   */
  complete(claim: TIdempotencyClaim, answer: TStoredAnswer): Promise<void>;
  /** Frees this claim if it is still at work and still its own (its request failed and may be tried again). */
  release(claim: TIdempotencyClaim): Promise<void>;
}
