// What the executor sees of the async queue, whichever it is: the in-process one (the default) or
// Redis (BullMQ). A dispatch submits its async hooks and releases them once it has answered; the
// queue runs them through the executor's pool and delivers their completions; the server streams
// the tenant's events from its feed; close() ends it (docs/scaling.md "Closing").
import type { AsyncSubmitter } from '../dispatch/context.js';
import type { Generation } from '../dispatch/generation.js';
import type { EventFeed } from './event-feed.js';
import type { JobContext } from './run-job.js';

export interface QueueStatus {
  readonly mode: 'embedded' | 'redis';
  /** Redis mode: whether Redis answers now (`down`: async hooks cannot be queued). */
  readonly redis?: 'up' | 'down';
  /** Redis mode: operations that failed because Redis did not answer, since start. */
  readonly unavailable: number;
  /** Async runs of this process: reserved and not finished (queued, waiting for a retry, running). */
  readonly pending: number;
  /** Async runs running in this process now. */
  readonly running: number;
}

export interface AsyncQueue extends AsyncSubmitter {
  readonly feed: EventFeed;
  status(): QueueStatus;
  /** Resolves once the queue can take work (Redis: connected, or it did not answer within a bound). */
  ready(): Promise<void>;
  /**
   * Waits (at most `timeoutMs`) until this process has no async run left to do: embedded, every
   * queued one has finished; Redis, it takes no new job and the ones it runs have finished.
   */
  drain(timeoutMs: number): Promise<'idle' | 'timeout'>;
  /** Stops: see docs/scaling.md "Closing". Call before the pool closes; resolves once settled. */
  close(): Promise<void>;
}

/** What a queue needs of its executor: the parts jobs run with, and the configuration in force. */
export interface QueueHost {
  readonly context: () => JobContext;
  readonly generation: () => Generation;
}

/** A tenant's `maxAsyncQueued`: its own limit, else the executor's. */
export function maxAsyncQueuedFor(gen: Generation, tenant: string | undefined): number {
  const own = tenant === undefined ? undefined : (gen.tenants.get(tenant) ?? gen.policyOnly).limits;
  return own?.maxAsyncQueued ?? gen.limits.maxAsyncQueued;
}
