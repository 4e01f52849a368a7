// Draining: after SIGTERM or SIGINT the server answers every new dispatch 503 (and /readyz 503)
// while the dispatches already running finish. Each running dispatch holds an AbortController:
// aborting it (the drain timeout, or the client going away) ends the dispatch at once with the
// interrupted verdict (deny on events that can deny) and kills its hooks.
import { setMaxListeners } from 'node:events';

export class Drain {
  readonly #running = new Set<AbortController>();
  #draining = false;
  #idle: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  /** Dispatches running now. */
  get inFlight(): number {
    return this.#running.size;
  }

  /** Admits a dispatch: its abort controller, or undefined when draining (the caller answers 503). */
  admit(): AbortController | undefined {
    if (this.#draining) return undefined;
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    this.#running.add(c);
    return c;
  }

  /** The dispatch of `c` has answered. */
  done(c: AbortController): void {
    this.#running.delete(c);
    if (this.#running.size === 0) for (const fn of this.#idle.splice(0)) fn();
  }

  /** Stops admitting dispatches. Idempotent. */
  start(): void {
    this.#draining = true;
  }

  /** Resolves `idle` once no dispatch runs, or `timeout` after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<'idle' | 'timeout'> {
    if (this.#running.size === 0) return Promise.resolve('idle');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#idle = this.#idle.filter((fn) => fn !== onIdle);
        resolve('timeout');
      }, timeoutMs);
      const onIdle = () => {
        clearTimeout(timer);
        resolve('idle');
      };
      this.#idle.push(onIdle);
    });
  }

  /** Aborts every running dispatch (they answer at once, interrupted). */
  abortAll(reason: string): void {
    for (const c of this.#running) c.abort(new Error(reason));
  }
}
