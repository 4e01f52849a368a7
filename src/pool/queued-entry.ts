// A run waiting in (or sent from) a worker lane's tenant queues: the part the QuickJS and wasm lanes
// share. It is settled once; an abort of its signal takes it out of the queue, or stops it.
import { hookError } from '../contract/error-codes.js';
import { type LaneResult, refusal } from './lane.js';
import type { TenantQueues } from './tenant-queues.js';

export interface QueuedEntry<V> {
  readonly tenant: string;
  readonly signal: AbortSignal | undefined;
  readonly queuedAt: number;
  readonly resolve: (r: LaneResult<V>) => void;
  onAbort: (() => void) | undefined;
  done: boolean;
}

/** Settles `entry` once with `result`, unhooking its abort listener. */
export function settleEntry<V>(entry: QueuedEntry<V>, result: LaneResult<V>): void {
  if (entry.done) return;
  entry.done = true;
  if (entry.onAbort !== undefined) entry.signal?.removeEventListener('abort', entry.onAbort);
  entry.resolve(result);
}

/**
 * Queues `entry` behind its tenant's turn: its signal's abort calls `onAbort(entry)`; a tenant at
 * its maxQueued refuses it (`queue_full`). Returns whether it was queued.
 */
export function enqueue<V, E extends QueuedEntry<V>>(
  queue: TenantQueues<E>,
  entry: E,
  onAbort: (entry: E) => void,
): boolean {
  const { signal, tenant } = entry;
  if (signal !== undefined) {
    entry.onAbort = () => onAbort(entry);
    signal.addEventListener('abort', entry.onAbort, { once: true });
  }
  if (queue.push(tenant, entry)) return true;
  const message = `tenant "${tenant}" has its maximum of hooks queued (maxQueued); the hook was not run`;
  settleEntry(entry, refusal(hookError('queue_full', message, { tenant }), 0));
  return false;
}

/** Takes an entry not yet sent out of the queue, refused `aborted`; false when it was sent. */
export function abortQueued<V, E extends QueuedEntry<V> & { readonly batch: unknown }>(
  queue: TenantQueues<E>,
  entry: E,
): boolean {
  if (entry.batch !== undefined) return false;
  queue.remove(entry.tenant, entry);
  settleEntry(entry, refusal('aborted', performance.now() - entry.queuedAt));
  return true;
}
