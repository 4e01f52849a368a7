// Callers of a queue's drain(): each waits until the queue says it is idle, or its own timeout.
export class IdleWaiters {
  #waiters: (() => void)[] = [];

  /** Resolves 'idle' at the next wake() (at once when `idle` is already true), else 'timeout'. */
  wait(idle: boolean, timeoutMs: number): Promise<'idle' | 'timeout'> {
    if (idle) return Promise.resolve('idle');
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve('idle');
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        resolve('timeout');
      }, timeoutMs);
      this.#waiters.push(wake);
    });
  }

  wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }
}
