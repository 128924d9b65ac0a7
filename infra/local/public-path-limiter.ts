import type { TPublicPathLimits } from '../stage-config';

export type TPathAdmission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * The stack's WAF rate-based rules, as the local gateway enforces them: a counter per path group
 * and client address over a fixed window (WAF's window slides; a fixed one is close enough here
 * and can say exactly when it frees up).
 */
export class PublicPathLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(readonly limits: TPublicPathLimits) {}

  admit(group: string, address: string, now = Date.now()): TPathAdmission {
    const windowMs = this.limits.windowSeconds * 1000;
    const key = `${group}\u0000${address}`;
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      if (!w && this.windows.size >= 10_000) this.forgetExpired(now, windowMs);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.limits.requestsPerWindow) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)) };
    }
    w.count += 1;
    return { ok: true };
  }

  private forgetExpired(now: number, windowMs: number) {
    for (const [key, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(key);
  }
}
