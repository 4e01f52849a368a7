// `limits.tenantRatePerSec` (+ `tenantRateBurst`) of the in-process executor: a token bucket per
// tenant from rate-limiter-flexible (RateLimiterMemory, wrapped in a BurstyRateLimiter when a burst
// is allowed). Redis mode replaces the memory store with Redis so that every replica draws on the
// same bucket (docs/scaling.md "Quotas"). Over the rate, dispatch() rejects `rate_limited` with
// `retryAfterMs`.
//
// rate-limiter-flexible is loaded on the first dispatch that has a rate (~25 ms of module loading):
// a one-shot CLI dispatch without rates never pays for it.
import type { Redis } from 'ioredis';
import type { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { DEFAULTS } from '../config/defaults.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { Generation } from '../dispatch/generation.js';

type Rlf = typeof import('rate-limiter-flexible');
type Bucket = RateLimiterMemory | RateLimiterRedis;
type Limiter = Bucket | BurstyRateLimiter;

/**
 * Redis mode: the buckets live in Redis (every replica draws on the same one). While Redis does not
 * answer, each replica falls back to its own in-memory bucket at the same rate (rate-limiter-
 * flexible's insurance limiter): quotas fail open to "rate × replicas", dispatches keep working.
 */
export interface RateStore {
  readonly client: Redis;
  readonly prefix: string;
  readonly onUnavailable: () => void;
}

/** A tenant's rate and burst: its own limits, else the executor's. Undefined rate: no limit. */
function rateOf(gen: Generation, tenant: string | undefined): { rate: number | undefined; burst: number } {
  const own = tenant === undefined ? undefined : (gen.tenants.get(tenant) ?? gen.policyOnly).limits;
  return {
    rate: own?.ratePerSec ?? gen.limits.tenantRatePerSec,
    burst: own?.rateBurst ?? gen.limits.tenantRateBurst,
  };
}

export class TenantRate {
  /** One limiter per (rate, burst) pair in use: a reload that changes a rate starts a fresh bucket. */
  readonly #limiters = new Map<string, Limiter>();
  readonly #store: RateStore | undefined;
  #rlf: Rlf | undefined;

  constructor(store?: RateStore) {
    this.#store = store;
  }

  #bucket(rlf: Rlf, name: string, points: number, duration: number): Bucket {
    const memory = new rlf.RateLimiterMemory({ keyPrefix: name, points, duration });
    const s = this.#store;
    if (s === undefined) return memory;
    return new rlf.RateLimiterRedis({
      storeClient: s.client,
      keyPrefix: `${s.prefix}:rate:${name}`,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  }

  #limiter(rlf: Rlf, rate: number, burst: number): Limiter {
    const key = `${rate}/${burst}`;
    let l = this.#limiters.get(key);
    if (l === undefined) {
      const base = this.#bucket(rlf, `r${key}`, rate, 1);
      const windowS = DEFAULTS.async.burstWindowMs / 1000;
      l = burst === 0 ? base : new rlf.BurstyRateLimiter(base, this.#bucket(rlf, `b${key}`, burst, windowS));
      this.#limiters.set(key, l);
    }
    return l;
  }

  /**
   * Takes one dispatch from the tenant's bucket, or rejects `rate_limited`. Undefined (no promise)
   * when the tenant has no rate: a dispatch without one starts in the same tick as before.
   */
  admit(gen: Generation, tenant: string | undefined): Promise<void> | undefined {
    const { rate, burst } = rateOf(gen, tenant);
    if (rate === undefined) return undefined;
    return this.#consume(rate, burst, tenant);
  }

  async #consume(rate: number, burst: number, tenant: string | undefined): Promise<void> {
    if (this.#store !== undefined && this.#store.client.status !== 'ready') this.#store.onUnavailable();
    this.#rlf ??= await import('rate-limiter-flexible');
    const rlf = this.#rlf;
    try {
      await this.#limiter(rlf, rate, burst).consume(tenant ?? '', 1);
    } catch (err) {
      if (!(err instanceof rlf.RateLimiterRes)) throw err;
      throw rateLimited(tenant, rate, burst, err.msBeforeNext);
    }
  }
}

function rateLimited(tenant: string | undefined, rate: number, burst: number, retryAfterMs: number) {
  const who = tenant === undefined ? 'dispatches without a tenant are' : `tenant "${tenant}" is`;
  return new HookwardenError(
    'rate_limited',
    `${who} over limits.tenantRatePerSec (${rate}/s, burst ${burst}); retry in ${Math.ceil(retryAfterMs)} ms`,
    { retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)) },
  );
}
