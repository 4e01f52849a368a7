// `limits.tenantRatePerSec` (+ `tenantRateBurst`) of the in-process executor: a token bucket per
// tenant from rate-limiter-flexible (RateLimiterMemory, wrapped in a BurstyRateLimiter when a burst
// is allowed). Redis mode replaces the memory store with Redis so that every replica draws on the
// same bucket (docs/scaling.md "Quotas"). Over the rate, dispatch() rejects `rate_limited` with
// `retryAfterMs`.
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DEFAULTS } from '../config/defaults.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { Generation } from '../dispatch/generation.js';

type Limiter = RateLimiterMemory | BurstyRateLimiter;

/** A tenant's rate and burst: its own limits, else the executor's. Undefined rate: no limit. */
export function rateOf(
  gen: Generation,
  tenant: string | undefined,
): { rate: number | undefined; burst: number } {
  const own = tenant === undefined ? undefined : (gen.tenants.get(tenant) ?? gen.policyOnly).limits;
  return {
    rate: own?.ratePerSec ?? gen.limits.tenantRatePerSec,
    burst: own?.rateBurst ?? gen.limits.tenantRateBurst,
  };
}

export class TenantRate {
  /** One limiter per (rate, burst) pair in use: a reload that changes a rate starts a fresh bucket. */
  readonly #limiters = new Map<string, Limiter>();

  #limiter(rate: number, burst: number): Limiter {
    const key = `${rate}/${burst}`;
    let l = this.#limiters.get(key);
    if (l === undefined) {
      const base = new RateLimiterMemory({ keyPrefix: `r${key}`, points: rate, duration: 1 });
      const windowS = DEFAULTS.async.burstWindowMs / 1000;
      l =
        burst === 0
          ? base
          : new BurstyRateLimiter(
              base,
              new RateLimiterMemory({ keyPrefix: `b${key}`, points: burst, duration: windowS }),
            );
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
    try {
      await this.#limiter(rate, burst).consume(tenant ?? '', 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      throw rateLimited(tenant, rate, burst, err.msBeforeNext);
    }
  }
}

export function rateLimited(tenant: string | undefined, rate: number, burst: number, retryAfterMs: number) {
  const who = tenant === undefined ? 'dispatches without a tenant are' : `tenant "${tenant}" is`;
  return new HookwardenError(
    'rate_limited',
    `${who} over limits.tenantRatePerSec (${rate}/s, burst ${burst}); retry in ${Math.ceil(retryAfterMs)} ms`,
    { retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)) },
  );
}
