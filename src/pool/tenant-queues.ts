// Fair scheduling across tenants, in front of each lane (weighted round-robin), with per-tenant
// limits: `maxConcurrent` (work running at once), `maxQueued` (waiting; past it, queue_full at once)
// and an optional CPU budget per window (a tenant that used `cpuMsPerWindow` of run time in the
// current window waits for the next). A tenant that floods a lane with slow hooks gets its turn like
// everyone else, not everyone's turns: the next free slot goes to the next tenant in rotation.

import type { TenantLimits } from '../config/tenant-limits.js';

export type { TenantLimits };

/** How much work one `next()` may hand out: items are added while their summed cost fits. */
export interface BatchBudget<T> {
  readonly cost: (item: T) => number;
  readonly budget: number;
}

interface TenantState<T> {
  readonly id: string;
  readonly queue: T[];
  running: number;
  credit: number;
  windowStart: number;
  usedMs: number;
}

/**
 * Per-tenant FIFO queues and the rotation that picks which tenant goes next. The lane owns its
 * capacity: it calls `next()` while it has room, `started`/`finished` around each run.
 */
export class TenantQueues<T> {
  readonly #limitsFor: (tenant: string) => TenantLimits;
  readonly #tenants = new Map<string, TenantState<T>>();
  readonly #rotation: string[] = [];
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(limitsFor: (tenant: string) => TenantLimits, wake?: () => void) {
    this.#limitsFor = limitsFor;
    this.#wake = wake;
  }

  #state(id: string): TenantState<T> {
    let t = this.#tenants.get(id);
    if (t === undefined) {
      t = { id, queue: [], running: 0, credit: 0, windowStart: 0, usedMs: 0 };
      this.#tenants.set(id, t);
    }
    return t;
  }

  get size(): number {
    let n = 0;
    for (const t of this.#tenants.values()) n += t.queue.length;
    return n;
  }

  /** Queues an item; false when the tenant's maxQueued is reached (queue_full). */
  push(tenant: string, item: T): boolean {
    const t = this.#state(tenant);
    const max = this.#limitsFor(tenant).maxQueued;
    if (max !== undefined && t.queue.length >= max) return false;
    t.queue.push(item);
    if (!this.#rotation.includes(tenant)) this.#rotation.push(tenant);
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
    for (let looked = 0; looked < this.#rotation.length; ) {
      const t = this.#state(this.#rotation[0]!);
      if (t.queue.length === 0) {
        this.#rotation.shift();
        continue;
      }
      if (!this.#eligible(t, now)) {
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
    return undefined;
  }

  started(tenant: string, count = 1): void {
    this.#state(tenant).running += count;
  }

  /** Work of `tenant` finished; `ranMs` counts against its CPU budget. */
  finished(tenant: string, count = 1, ranMs = 0): void {
    const t = this.#state(tenant);
    t.running -= count;
    t.usedMs += ranMs;
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
