// Fair scheduling across tenants, in front of each lane (weighted round-robin), with per-tenant
// limits: `maxConcurrent` (work running at once), `maxQueued` (waiting; past it, queue_full at once)
// and an optional CPU budget per window (a tenant that used `cpuMsPerWindow` of run time in the
// current window waits for the next). A tenant that floods a lane with slow hooks gets its turn like
// everyone else, not everyone's turns: the next free slot goes to the next tenant in rotation.
//
// Fair share (on by default, `limits.fairShareIdleMs`): a lane's slots cannot be taken back from a
// running hook, so rotation alone lets a flood hold every slot and a quiet tenant wait for one to
// free. While more than one tenant is active (work queued or running, or some within the last
// `idleMs`), each keeps a reserve: its weighted share of the lane's slots, no more than it recently
// used at its peak (and its maxConcurrent). Another tenant may start work only in slots beyond the
// others' unused reserves. Work-conserving in what it gives: a lone tenant uses the whole lane, a
// tenant that uses one slot keeps one, and a reserve ends `idleMs` after its tenant's last work
// (the peak it reserves is the larger of this and the previous `idleMs` window).

import type { TenantLimits } from '../config/tenant-limits.js';
import { type FairShare, FairShareReserves } from './fair-share.js';
import { newTenantState, type TenantState } from './tenant-state.js';

export type { TenantLimits };

/** How much work one `next()` may hand out: items are added while their summed cost fits. */
export interface BatchBudget<T> {
  readonly cost: (item: T) => number;
  readonly budget: number;
}

export interface TenantQueuesOptions {
  readonly fair?: FairShare | undefined;
  /** A tenant's maxQueued when its limits set none (undefined or 0: unbounded). */
  readonly defaultMaxQueued?: number | undefined;
}

/** Tenants' states kept before the first sweep of idle ones. */
const SWEEP_MIN = 64;

/**
 * Per-tenant FIFO queues and the rotation that picks which tenant goes next. The lane owns its
 * capacity: it calls `next()` while it has room, `started`/`finished` around each run.
 */
export class TenantQueues<T> {
  readonly #limitsFor: (tenant: string) => TenantLimits;
  readonly #tenants = new Map<string, TenantState<T>>();
  readonly #rotation: string[] = [];
  readonly #fair: FairShareReserves<T>;
  readonly #defaultMaxQueued: number | undefined;
  #slots = 0;
  /** The number of tenants' states at which `push` next sweeps out the idle ones. */
  #sweepAt = SWEEP_MIN;
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    limitsFor: (tenant: string) => TenantLimits,
    wake?: () => void,
    options: TenantQueuesOptions = {},
  ) {
    this.#limitsFor = limitsFor;
    this.#wake = wake;
    this.#fair = new FairShareReserves(options.fair, limitsFor);
    this.#defaultMaxQueued = options.defaultMaxQueued || undefined;
  }

  #state(id: string): TenantState<T> {
    let t = this.#tenants.get(id);
    if (t === undefined) {
      t = newTenantState<T>(id);
      this.#tenants.set(id, t);
    }
    return t;
  }

  get size(): number {
    let n = 0;
    for (const t of this.#tenants.values()) n += t.queue.length;
    return n;
  }

  /**
   * Forgets tenants with nothing queued or running whose reserve and CPU window have ended: what
   * they come back to is what a new tenant gets. Amortised: runs when the number of states doubles.
   */
  #sweep(now: number): void {
    for (const [id, t] of this.#tenants) {
      if (t.queue.length > 0 || t.running > 0 || t.slots > 0) continue;
      if (this.#fair.holds(t, now)) continue;
      const limits = this.#limitsFor(id);
      if (limits.cpuMsPerWindow !== undefined && now - t.windowStart < (limits.windowMs ?? 1000)) continue;
      this.#fair.forget(t);
      this.#tenants.delete(id);
      const r = this.#rotation.indexOf(id);
      if (r >= 0) this.#rotation.splice(r, 1);
    }
    this.#sweepAt = Math.max(SWEEP_MIN, 2 * this.#tenants.size);
  }

  /** Queues an item; false when the tenant's maxQueued is reached (queue_full). */
  push(tenant: string, item: T): boolean {
    if (this.#tenants.size >= this.#sweepAt && !this.#tenants.has(tenant)) this.#sweep(Date.now());
    const t = this.#state(tenant);
    const max = this.#limitsFor(tenant).maxQueued ?? this.#defaultMaxQueued;
    if (max !== undefined && t.queue.length >= max) return false;
    t.queue.push(item);
    if (!this.#rotation.includes(tenant)) this.#rotation.push(tenant);
    this.#fair.seen(t);
    return true;
  }

  /** Removes a queued item (an aborted wait); false when it was not queued. */
  remove(tenant: string, item: T): boolean {
    const q = this.#tenants.get(tenant)?.queue;
    const i = q?.indexOf(item) ?? -1;
    if (i < 0) return false;
    q!.splice(i, 1);
    return true;
  }

  #eligible(t: TenantState<T>, now: number): boolean {
    const limits = this.#limitsFor(t.id);
    if (limits.maxConcurrent !== undefined && t.running >= limits.maxConcurrent) return false;
    if (limits.cpuMsPerWindow === undefined) return true;
    const windowMs = limits.windowMs ?? 1000;
    if (now - t.windowStart >= windowMs) {
      t.windowStart = now;
      t.usedMs = 0;
    }
    if (t.usedMs < limits.cpuMsPerWindow) return true;
    this.#wakeIn(t.windowStart + windowMs - now);
    return false;
  }

  #wakeIn(delayMs: number): void {
    if (this.#timer !== undefined || this.#wake === undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#wake?.();
      },
      Math.max(1, delayMs),
    );
    this.#timer.unref();
  }

  /**
   * Takes the next tenant's next items (up to `max`, within its maxConcurrent, and while their
   * summed `batch.cost` stays within `batch.budget`), round-robin by weight; undefined when no
   * tenant may run now.
   */
  next(max = 1, batch?: BatchBudget<T>): { tenant: string; items: T[] } | undefined {
    const now = Date.now();
    const reserves = this.#fair.unused(now);
    let heldBack = false;
    for (let looked = 0; looked < this.#rotation.length; ) {
      const t = this.#state(this.#rotation[0]!);
      if (t.queue.length === 0) {
        this.#rotation.shift();
        continue;
      }
      const fair = this.#fair.room(t, reserves, this.#slots);
      if (!fair) heldBack = true;
      if (!fair || !this.#eligible(t, now)) {
        this.#rotation.push(this.#rotation.shift()!);
        looked++;
        continue;
      }
      if (t.credit <= 0) t.credit = Math.max(1, this.#limitsFor(t.id).weight ?? 1);
      t.credit--;
      if (t.credit <= 0 || t.queue.length === 1) this.#rotation.push(this.#rotation.shift()!);
      const room = this.#limitsFor(t.id).maxConcurrent;
      const n = Math.max(1, Math.min(max, t.queue.length, room === undefined ? max : room - t.running));
      // The first item always goes; more only while they fit the batch budget.
      let take = 1;
      if (batch === undefined) take = n;
      else {
        let spent = batch.cost(t.queue[0]!);
        while (take < n) {
          spent += batch.cost(t.queue[take]!);
          if (spent > batch.budget) break;
          take++;
        }
      }
      return { tenant: t.id, items: t.queue.splice(0, take) };
    }
    // Held back only by a reserve of a tenant now idle: look again when it ends.
    if (heldBack) {
      const end = this.#fair.soonestEnd(now);
      if (end !== Number.POSITIVE_INFINITY) this.#wakeIn(end);
    }
    return undefined;
  }

  /** `count` items of `tenant` started, in one slot of the lane. */
  started(tenant: string, count = 1): void {
    const t = this.#state(tenant);
    t.running += count;
    t.slots++;
    this.#slots++;
    this.#fair.seen(t);
  }

  /** Work of `tenant` started in one slot finished; `ranMs` counts against its CPU budget. */
  finished(tenant: string, count = 1, ranMs = 0): void {
    const t = this.#state(tenant);
    t.running -= count;
    t.slots--;
    this.#slots--;
    t.usedMs += ranMs;
    this.#fair.seen(t);
  }

  /** Each tenant's items waiting and running (metrics; read-only). '' is the default tenant. */
  counts(): { tenant: string; queued: number; running: number }[] {
    return [...this.#tenants.values()].map((t) => ({
      tenant: t.id,
      queued: t.queue.length,
      running: t.running,
    }));
  }

  /** Every queued item, emptied (the lane is closing). */
  drain(): T[] {
    clearTimeout(this.#timer);
    this.#wake = undefined;
    const all: T[] = [];
    for (const t of this.#tenants.values()) all.push(...t.queue.splice(0));
    this.#rotation.length = 0;
    return all;
  }
}
