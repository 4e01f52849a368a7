// A FIFO counting semaphore with abortable waits: how the pool bounds concurrent executions.

export class SlotsClosedError extends Error {
  override readonly name = 'SlotsClosedError';
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Slots {
  #free: number;
  readonly #waiters: Waiter[] = [];
  #closed = false;

  constructor(readonly capacity: number) {
    this.#free = capacity;
  }

  /** Number of callers waiting for a slot. */
  get queued(): number {
    return this.#waiters.length;
  }

  get running(): number {
    return this.capacity - this.#free;
  }

  /** Resolves when a slot is held; rejects with the signal's reason on abort, SlotsClosedError on close. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(new SlotsClosedError('the pool is closed'));
    if (this.#free > 0 && this.#waiters.length === 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next !== undefined) next.resolve();
    else this.#free++;
  }

  /** Rejects every waiter; later acquires reject at once. */
  close(): void {
    this.#closed = true;
    for (const w of this.#waiters.splice(0)) w.reject(new SlotsClosedError('the pool is closed'));
  }
}
