// Fair share for a lane's TenantQueues (tenant-queues.ts describes the policy): which tenants are
// active, each one's reserve of the lane's slots (its weighted share, no more than its recent peak
// and its maxConcurrent), and whether a tenant may take a slot beyond the others' unused reserves.

import type { TenantLimits } from '../config/tenant-limits.js';
import type { TenantState } from './tenant-state.js';

/** The lane's fair share: its slots, and how long a tenant's reserve outlives its last work. */
export interface FairShare {
  readonly capacity: number;
  /** 0 turns fair share off (rotation only). */
  readonly idleMs: number;
}

/** Each active tenant's reserve not in use (slots), summed, and per tenant. */
interface UnusedReserves<T> {
  readonly total: number;
  readonly of: Map<TenantState<T>, number>;
}

/** The active tenants and their reserves; every method is a no-op (or allows) when fair share is off. */
export class FairShareReserves<T> {
  readonly #fair: FairShare | undefined;
  readonly #limitsFor: (tenant: string) => TenantLimits;
  /** Tenants that may hold a reserve (pruned when their reserve ends). */
  readonly #active = new Set<TenantState<T>>();

  /** Off unless `fair` has an idle time and more than one slot. */
  constructor(fair: FairShare | undefined, limitsFor: (tenant: string) => TenantLimits) {
    this.#fair = fair !== undefined && fair.idleMs > 0 && fair.capacity > 1 ? fair : undefined;
    this.#limitsFor = limitsFor;
  }

  /** Records the tenant's demand (slots in use plus queued) for its reserve. */
  seen(t: TenantState<T>): void {
    const fair = this.#fair;
    if (fair === undefined) return;
    const now = Date.now();
    if (now - t.peakAt >= fair.idleMs) {
      t.prevPeak = now - t.peakAt >= 2 * fair.idleMs ? 0 : t.peak;
      t.peak = 0;
      t.peakAt = now;
    }
    t.peak = Math.max(t.peak, t.slots + t.queue.length);
    t.lastSeen = now;
    this.#active.add(t);
  }

  /** Whether `t` still holds a reserve (an idle tenant's state must then be kept). */
  holds(t: TenantState<T>, now: number): boolean {
    return this.#fair !== undefined && this.#active.has(t) && now - t.lastSeen < this.#fair.idleMs;
  }

  /** Forgets `t` (its state is swept out). */
  forget(t: TenantState<T>): void {
    this.#active.delete(t);
  }

  /**
   * Each active tenant's reserve not in use (slots), summed, and per tenant; prunes tenants whose
   * reserve ended. Empty when fair share is off or fewer than two tenants are active.
   */
  unused(now: number): UnusedReserves<T> | undefined {
    const fair = this.#fair;
    if (fair === undefined) return undefined;
    let weights = 0;
    for (const t of this.#active) {
      if (t.slots === 0 && t.queue.length === 0 && now - t.lastSeen >= fair.idleMs) {
        this.#active.delete(t);
        continue;
      }
      weights += this.#limitsFor(t.id).weight ?? 1;
    }
    if (this.#active.size < 2) return undefined;
    const of = new Map<TenantState<T>, number>();
    let total = 0;
    for (const t of this.#active) {
      const limits = this.#limitsFor(t.id);
      const share = (fair.capacity * (limits.weight ?? 1)) / weights;
      const recent = Math.max(t.peak, now - t.peakAt < 2 * fair.idleMs ? t.prevPeak : 0);
      const reserve = Math.min(share, recent, limits.maxConcurrent ?? Number.POSITIVE_INFINITY);
      const unused = Math.max(0, reserve - t.slots);
      if (unused > 0) {
        of.set(t, unused);
        total += unused;
      }
    }
    return { total, of };
  }

  /** Whether `t` may take a slot beyond the others' unused reserves, with `slots` of the lane in use. */
  room(t: TenantState<T>, reserves: UnusedReserves<T> | undefined, slots: number): boolean {
    if (reserves === undefined) return true;
    const others = reserves.total - (reserves.of.get(t) ?? 0);
    return this.#fair!.capacity - slots > others;
  }

  /** The soonest a reserve of an idle tenant ends (ms from now). */
  soonestEnd(now: number): number {
    let soonest = Number.POSITIVE_INFINITY;
    for (const t of this.#active)
      if (t.slots === 0 && t.queue.length === 0)
        soonest = Math.min(soonest, t.lastSeen + this.#fair!.idleMs - now);
    return soonest;
  }
}
