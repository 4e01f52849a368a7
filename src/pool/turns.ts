// A lane's slots handed out fairly: at most `capacity` at once, the next free one to the next tenant
// in rotation, within the other active tenants' fair-share reserves (see tenant-queues.ts), waits
// abortable, queue_full past a tenant's maxQueued.
import { type TenantLimits, TenantQueues, type TenantQueuesOptions } from './tenant-queues.js';

/** How a lane schedules tenants beyond rotation and their own limits (limits.fairShareIdleMs, tenantMaxQueued). */
export interface LaneScheduling {
  /** How long a tenant's fair-share reserve outlives its last work; 0 or unset: no fair share. */
  readonly fairShareIdleMs?: number | undefined;
  /** A tenant's maxQueued when its limits set none; 0 or unset: unbounded. */
  readonly tenantMaxQueued?: number | undefined;
}

/** The TenantQueues options of a lane of `capacity` slots. */
export function laneQueueOptions(capacity: number, s: LaneScheduling): TenantQueuesOptions {
  return {
    fair: { capacity, idleMs: s.fairShareIdleMs ?? 0 },
    defaultMaxQueued: s.tenantMaxQueued,
  };
}

export type TurnResult = 'granted' | 'queue_full' | 'aborted' | 'closed';

interface Waiter {
  readonly grant: (r: TurnResult) => void;
}

export class Turns {
  readonly #capacity: number;
  readonly #queues: TenantQueues<Waiter>;
  #running = 0;
  #closed = false;

  /** `scheduling`: the fair share's idle time (its capacity is this one) and the default maxQueued. */
  constructor(
    capacity: number,
    limitsFor: (tenant: string) => TenantLimits = () => ({}),
    scheduling: LaneScheduling = {},
  ) {
    this.#capacity = capacity;
    this.#queues = new TenantQueues(limitsFor, () => this.#pump(), laneQueueOptions(capacity, scheduling));
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queues.size;
  }

  /** Most turns out at once. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Each tenant's waiting and running turns (metrics). */
  counts(): { tenant: string; queued: number; running: number }[] {
    return this.#queues.counts();
  }

  acquire(tenant: string, signal?: AbortSignal): Promise<TurnResult> {
    if (this.#closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise<TurnResult>((resolve) => {
      const onAbort = () => {
        if (this.#queues.remove(tenant, waiter)) resolve('aborted');
      };
      const waiter: Waiter = {
        grant: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
      };
      if (!this.#queues.push(tenant, waiter)) return resolve('queue_full');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pump();
    });
  }

  /** Gives a turn back; `ranMs` counts against the tenant's CPU budget. */
  release(tenant: string, ranMs = 0): void {
    this.#running--;
    this.#queues.finished(tenant, 1, ranMs);
    this.#pump();
  }

  #pump(): void {
    while (!this.#closed && this.#running < this.#capacity) {
      const next = this.#queues.next(1);
      if (next === undefined) return;
      this.#running++;
      this.#queues.started(next.tenant);
      next.items[0]!.grant('granted');
    }
  }

  close(): void {
    this.#closed = true;
    for (const w of this.#queues.drain()) w.grant('closed');
  }
}
