// The abort signal of one batch of JS tasks sent to a Piscina worker, and the answer of its tasks when
// the batch ends without results.
import { type LaneRefusal, refusal } from './lane.js';

/**
 * The abort signal Piscina gets for a batch: Piscina accepts any object with `aborted`, `reason`
 * and `once`/`removeListener` (EventEmitter style); Node's AbortController costs more than a trivial
 * hook.
 */
export class BatchAbort {
  aborted = false;
  reason: unknown;
  #listeners: (() => void)[] = [];
  once(_type: 'abort', fn: () => void): void {
    this.#listeners.push(fn);
  }
  removeListener(_type: 'abort', fn: () => void): void {
    this.#listeners = this.#listeners.filter((l) => l !== fn);
  }
  /** Piscina's types name it `off`; its code calls `removeListener`. */
  off(type: 'abort', fn: () => void): void {
    this.removeListener(type, fn);
  }
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const fn of this.#listeners.splice(0)) fn();
  }
}

/** Why a batch ended without answers: the backstop, the pool closing, or the worker failing. */
export function batchFailure(
  why: 'backstop' | 'abort' | 'close' | undefined,
  err: unknown,
  graceMs: number,
  queuedMs: number,
): LaneRefusal {
  if (why === 'backstop') {
    const message = `no answer within the deadline + ${graceMs} ms grace (a hook did not yield to its interrupt); its worker thread was terminated and replaced`;
    return refusal({ code: 'timeout', message }, queuedMs, true);
  }
  if (why === 'close') return refusal('pool_closed', queuedMs, true);
  const message = `the QuickJS worker failed: ${(err as Error).message}; it was replaced`;
  return refusal({ code: 'worker_crashed', message }, queuedMs, true);
}
