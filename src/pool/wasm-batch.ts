// One batch of wasm calls sent to a worker thread, and its deadline: a wasm module cannot be
// interrupted, so the host reads which call the worker is on and since when (shared progress cells
// the worker writes before each call) and terminates the thread when that call passes its deadline.
// The cells are slots of one SharedArrayBuffer every worker gets at its start (workerData): a batch
// names its slot, so no shared memory crosses with each message.
import { BatchAbort } from './batch-abort.js';

/** Longest wait for a worker thread to start a batch (a new thread loads its module first). */
const WORKER_START_MS = 30_000;

export interface Batch<E> {
  readonly entries: E[];
  readonly abort: BatchAbort;
  /** [index of the call the worker is on (-1: none yet), when it started (ms since the epoch)]. */
  readonly progress: Float64Array;
  /** Which slot of the shared progress cells `progress` is. */
  readonly slot: number;
  readonly sentAtEpoch: number;
  why: 'deadline' | 'abort' | 'close' | undefined;
  hung: number;
  timer: NodeJS.Timeout | undefined;
}

/** The progress cells of every batch in flight: two float64 per slot, one slot per batch. */
export class ProgressSlots {
  readonly buffer: SharedArrayBuffer;
  readonly #free: number[];

  constructor(slots: number) {
    this.buffer = new SharedArrayBuffer(16 * slots);
    this.#free = Array.from({ length: slots }, (_, i) => slots - 1 - i);
  }

  /** A free slot (undefined: none; the lane never has more batches in flight than slots). */
  take(): number | undefined {
    return this.#free.pop();
  }

  give(slot: number): void {
    this.#free.push(slot);
  }
}

/** A batch of `entries` on progress slot `slot`, its cells set to "no call started". */
export function newBatch<E>(entries: E[], slots: ProgressSlots, slot: number): Batch<E> {
  const progress = new Float64Array(slots.buffer, slot * 16, 2);
  progress[0] = -1;
  return {
    entries,
    abort: new BatchAbort(),
    progress,
    slot,
    sentAtEpoch: performance.timeOrigin + performance.now(),
    why: undefined,
    hung: -1,
    timer: undefined,
  };
}

/**
 * Stops the call that is past its deadline: reads which call runs and since when. A deadline starts
 * when its call starts (a thread that is still starting, after a termination, is not the hook's
 * time); a batch no thread starts within WORKER_START_MS is a worker failure.
 */
export function watchDeadline<
  E extends { readonly call: { readonly spec: { readonly deadlineMs: number } } },
>(batch: Batch<E>): void {
  const index = batch.progress[0]!;
  const now = performance.timeOrigin + performance.now();
  if (index < 0) {
    if (now - batch.sentAtEpoch < WORKER_START_MS) {
      batch.timer = setTimeout(() => watchDeadline(batch), 50);
      return;
    }
    batch.why ??= 'abort';
    batch.abort.abort(new Error(`no wasm worker started the call within ${WORKER_START_MS} ms`));
    return;
  }
  const due = batch.progress[1]! + batch.entries[index]!.call.spec.deadlineMs;
  if (now < due) {
    batch.timer = setTimeout(() => watchDeadline(batch), Math.ceil(due - now));
    return;
  }
  batch.why ??= 'deadline';
  batch.hung = index;
  batch.abort.abort(new Error('deadline'));
}
