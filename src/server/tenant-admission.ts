// A tenant's dispatches in progress on this server, bounded by what its lanes can run and queue:
// the largest lane's slots plus the tenant's maxQueued (its own, else limits.tenantMaxQueued). A
// dispatch past that bound could only be refused `queue_full` by a lane, after its input was read,
// its hooks resolved and a partial result built and sent; here it is answered 429 before any of
// that. A tenant retrying every 429 at once (a retry storm) then costs the server little per retry,
// and the event loop stays free for the other tenants' dispatches (bench/serve-storm.ts).
import type { Generation } from '../dispatch/generation.js';
import type { HookPool } from '../pool/pool.js';

export class TenantAdmission {
  readonly #inFlight = new Map<string, number>();
  /** The largest lane's slots (fixed for the pool's life). */
  readonly #slots: number;
  readonly #generation: () => Generation;

  constructor(pool: HookPool, generation: () => Generation) {
    this.#slots = Math.max(pool.command.load().capacity, pool.js.load().capacity);
    this.#generation = generation;
  }

  /** The most dispatches `tenant` may have in progress (Infinity: its queue is unbounded). */
  bound(tenant: string): number {
    const gen = this.#generation();
    const own = gen.tenants.get(tenant)?.limits.maxQueued;
    const queued = own ?? gen.limits.tenantMaxQueued;
    if (queued === 0) return Number.POSITIVE_INFINITY;
    return this.#slots + queued;
  }

  /** Counts a dispatch of `tenant` in, or false (and counts nothing) when it is at its bound. */
  admit(tenant: string): boolean {
    const n = this.#inFlight.get(tenant) ?? 0;
    if (n >= this.bound(tenant)) return false;
    this.#inFlight.set(tenant, n + 1);
    return true;
  }

  /** The dispatch admitted for `tenant` is over. */
  release(tenant: string): void {
    const n = (this.#inFlight.get(tenant) ?? 1) - 1;
    if (n <= 0) this.#inFlight.delete(tenant);
    else this.#inFlight.set(tenant, n);
  }
}
