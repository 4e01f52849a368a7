// Draining: after SIGTERM or SIGINT the server answers every new dispatch 503 (and /readyz 503)
// while the dispatches already running finish. Each running dispatch holds an AbortController:
// aborting it (the drain timeout, or the client going away) ends the dispatch at once with the
// interrupted verdict (deny on events that can deny) and kills its hooks. Requests of every route
// are counted too: once none is left, the listeners close every connection at once (an idle or
// pre-opened keep-alive connection would otherwise hold the close until the client drops it).
import { setMaxListeners } from 'node:events';

export class Drain {
  readonly #dispatches = new Set<AbortController>();
  #requests = 0;
  #draining = false;
  #waiters: { readonly idle: () => boolean; readonly wake: () => void }[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  /** Dispatches running now. */
  get inFlight(): number {
    return this.#dispatches.size;
  }

  /** Admits a dispatch: its abort controller, or undefined when draining (the caller answers 503). */
  admit(): AbortController | undefined {
    if (this.#draining) return undefined;
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    this.#dispatches.add(c);
    return c;
  }

  /** The dispatch of `c` has answered. */
  done(c: AbortController): void {
    this.#dispatches.delete(c);
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
    const idle = () => (what === 'dispatches' ? this.#dispatches.size === 0 : this.#requests <= 0);
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
    for (const c of this.#dispatches) c.abort(new Error(reason));
  }
}
