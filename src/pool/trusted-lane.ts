// The trusted lane: the platform's own in-process callbacks, under their deadline. The callback gets
// a signal that aborts at the deadline, on the dispatch's abort and on close; its promise is then
// abandoned (it cannot be killed: it is trusted code).
import { type Lane, type LaneResult, type LaneRunOptions, refusal } from './lane.js';
import { LinkedAbort } from './linked-abort.js';

export type TrustedRun<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout' };

export interface TrustedTask<T> {
  readonly fn: (signal: AbortSignal) => T | Promise<T>;
  readonly deadlineMs: number;
}

export class TrustedLane implements Lane<TrustedTask<unknown>, TrustedRun<unknown>> {
  readonly #closing: AbortSignal;

  constructor(closing: AbortSignal) {
    this.#closing = closing;
  }

  async run<T>(task: TrustedTask<T>, options: LaneRunOptions = {}): Promise<LaneResult<TrustedRun<T>>> {
    const { signal } = options;
    if (this.#closing.aborted) return refusal('pool_closed', 0);
    if (signal?.aborted) return refusal('aborted', 0);
    options.onStart?.();
    const link = new LinkedAbort(signal, this.#closing);
    let timer: NodeJS.Timeout | undefined;
    try {
      const value = await new Promise<TrustedRun<T> | { kind: 'aborted' }>((resolve) => {
        timer = setTimeout(() => {
          resolve({ kind: 'timeout' });
          link.controller.abort(new Error('deadline'));
        }, task.deadlineMs);
        link.signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
        Promise.resolve()
          .then(() => task.fn(link.signal))
          .then(
            (v) => resolve({ kind: 'ok', value: v }),
            (error: unknown) => resolve({ kind: 'threw', error }),
          );
      });
      if (value.kind === 'aborted')
        return refusal(this.#closing.aborted && !signal?.aborted ? 'pool_closed' : 'aborted', 0, true);
      return { ran: true, value, queuedMs: 0 };
    } finally {
      clearTimeout(timer);
      link.dispose();
    }
  }

  /** Nothing to wait for: a running callback sees the closing signal through its own. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
