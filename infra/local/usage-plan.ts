import { randomUUID } from 'node:crypto';
import { periodBounds, usageAt } from '#shared/adapters/apigateway/usage-reader';
import type { TUsage } from '#shared/domain/ports/accounts';
import type { TUsageKeyRegistry } from '#shared/domain/ports/usage-keys';

export interface TUsagePlanSettings {
  /** Requests per quota period and key. */
  quotaLimit: number;
  quotaPeriod: 'DAY' | 'WEEK' | 'MONTH';
  /** Steady requests per second and bucket size, API Gateway's token bucket. */
  rateLimit: number;
  burstLimit: number;
}

export type TAdmission =
  | { ok: true }
  | { ok: false; retryAfterSeconds: number; reason: 'throttle' | 'quota' };

interface TKeyState {
  tokens: number;
  refilled: number;
  periodStart: number;
  used: number;
}

/**
 * API Gateway's usage plan, as the local runtime enforces it: a token bucket per key for the
 * throttle and a counter per key and quota period. It answers GetUsage-shaped figures too.
 */
export class LocalUsagePlan {
  private readonly keys = new Map<string, TKeyState>();
  /** API keys deleted from the plan (a revoked key): refused even while the authorizer's answer is cached. */
  private readonly deleted = new Set<string>();

  constructor(
    readonly id: string,
    readonly settings: TUsagePlanSettings,
  ) {}

  private state(keyId: string, now: Date): TKeyState {
    const { start } = periodBounds(this.settings.quotaPeriod, now);
    let s = this.keys.get(keyId);
    if (!s) {
      s = {
        tokens: this.settings.burstLimit,
        refilled: now.getTime(),
        periodStart: start.getTime(),
        used: 0,
      };
      this.keys.set(keyId, s);
    }
    if (s.periodStart !== start.getTime()) {
      s.periodStart = start.getTime();
      s.used = 0;
    }
    const elapsed = (now.getTime() - s.refilled) / 1000;
    s.tokens = Math.min(this.settings.burstLimit, s.tokens + elapsed * this.settings.rateLimit);
    s.refilled = now.getTime();
    return s;
  }

  /**
   * The plan's API keys as API Gateway keeps them, for the functions that make and revoke keys:
   * a key deleted here is refused at once (API Gateway's INVALID_API_KEY), as on AWS.
   */
  keyRegistry(): TUsageKeyRegistry {
    return {
      register: async () => `local-${randomUUID()}`,
      remove: async (id) => {
        this.deleted.add(id);
      },
    };
  }

  /** Whether the key was deleted from the plan. */
  isDeleted(keyId: string): boolean {
    return this.deleted.has(keyId);
  }

  admit(keyId: string, now = new Date()): TAdmission {
    const s = this.state(keyId, now);
    if (s.used >= this.settings.quotaLimit) {
      const { end } = periodBounds(this.settings.quotaPeriod, now);
      return {
        ok: false,
        reason: 'quota',
        retryAfterSeconds: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)),
      };
    }
    if (s.tokens < 1) {
      const wait = (1 - s.tokens) / this.settings.rateLimit;
      return { ok: false, reason: 'throttle', retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    }
    s.tokens -= 1;
    s.used += 1;
    return { ok: true };
  }

  /** [used, remaining] in the current period, as GetUsage reports a day. */
  usage(keyId: string, now = new Date()): [number, number] {
    const s = this.state(keyId, now);
    return [s.used, Math.max(0, this.settings.quotaLimit - s.used)];
  }

  /** The key's standing as the usage reader reports it, for the gateway's own 429 answers. */
  standing(keyId: string, now = new Date()): TUsage {
    const s = this.settings;
    return usageAt(s.quotaLimit, this.usage(keyId, now)[1], s.quotaPeriod, now);
  }
}
