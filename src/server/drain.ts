// Draining: after SIGTERM or SIGINT the server answers every new dispatch 503 (and /readyz 503)
// while the dispatches already running finish. Running dispatches are counted by the abort
// controller they run under (their connection's, see connections.ts): aborting those (the drain
// timeout) ends each dispatch at once with the interrupted verdict (deny on events that can deny)
// and kills its hooks. Requests of every route are counted too: once none is left, the listeners
// close every connection at once (an idle or pre-opened keep-alive connection would otherwise hold
// the close until the client drops it).

export class Drain {
  /** Running dispatches, by the controller they run under. */
  readonly #dispatches = new Map<AbortController, number>();
  #inFlight = 0;
  #requests = 0;
  #draining = false;
  #waiters: { readonly idle: () => boolean; readonly wake: () => void }[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  /** Dispatches running now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Admits a dispatch running under `c`; false when draining (the caller answers 503). */
  admit(c: AbortController): boolean {
    if (this.#draining) return false;
    this.#dispatches.set(c, (this.#dispatches.get(c) ?? 0) + 1);
    this.#inFlight++;
    return true;
  }

  /** A dispatch admitted under `c` has answered. */
  done(c: AbortController): void {
    const n = (this.#dispatches.get(c) ?? 1) - 1;
    if (n === 0) this.#dispatches.delete(c);
    else this.#dispatches.set(c, n);
    this.#inFlight--;
    this.#check();
  }

  requestStarted(): void {
    this.#requests++;
  }

  requestFinished(): void {
    this.#requests--;
    this.#check();
  }

  #check(): void {
    for (const w of [...this.#waiters]) if (w.idle()) w.wake();
  }

  /** Stops admitting dispatches. Idempotent. */
  start(): void {
    this.#draining = true;
  }

  /** Resolves `idle` once no dispatch (or no request at all) runs, or `timeout` after `timeoutMs`. */
  whenIdle(timeoutMs: number, what: 'dispatches' | 'requests' = 'dispatches'): Promise<'idle' | 'timeout'> {
    const idle = () => (what === 'dispatches' ? this.#inFlight === 0 : this.#requests <= 0);
    if (idle()) return Promise.resolve('idle');
    return new Promise((resolve) => {
      const waiter = {
        idle,
        wake: () => {
          clearTimeout(timer);
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve('idle');
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve('timeout');
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Aborts every running dispatch (they answer at once, interrupted). */
  abortAll(reason: string): void {
    for (const c of this.#dispatches.keys()) c.abort(new Error(reason));
  }
}
