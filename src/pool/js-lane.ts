// The QuickJS lane: a Piscina pool whose workers (sandbox/js/worker.ts) each own one QuickJS module.
// Created on the first JS hook, so command-only executors start no thread. Workers stay warm
// (minThreads = maxThreads). Queueing happens here, in front of Piscina (at most one task per
// thread in flight), so a task starts as soon as it is submitted and its deadline clock is honest.
// The QuickJS interrupt handler enforces each hook's deadline; the backstop for a hook that does not
// yield to it (QuickJS's parser, for one, never checks it) is the task's AbortSignal at deadline +
// grace, which makes Piscina terminate that worker thread and start a fresh one.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { JsTask, JsTaskResult } from '../contract/js-task.js';
import { LinkedAbort } from './linked-abort.js';
import { Slots, SlotsClosedError } from './slots.js';

export interface JsLaneOptions {
  readonly threads: number;
  readonly heapCeilingBytes: number;
  /** Extra time a task gets beyond its hooks' deadlines before its worker thread is terminated. */
  readonly backstopGraceMs: number;
}

export type JsLaneResult =
  | { readonly ran: true; readonly value: JsTaskResult; readonly queuedMs: number }
  | {
      readonly ran: false;
      readonly reason: 'aborted' | 'pool_closed' | 'timeout' | 'worker_crashed';
      readonly message: string;
      readonly queuedMs: number;
    };

function workerFile(): string {
  // dist/src/pool → dist/sandbox/js; src/pool (sources under vitest) → dist/sandbox/js.
  const candidates = [
    new URL('../../sandbox/js/worker.js', import.meta.url),
    new URL('../../dist/sandbox/js/worker.js', import.meta.url),
  ];
  const found = candidates.find((u) => existsSync(fileURLToPath(u)));
  if (found === undefined) throw new Error('the QuickJS worker is not built: run `npm run build`');
  return found.href;
}

export class JsLane {
  readonly #options: JsLaneOptions;
  #piscina: Piscina | undefined;
  readonly #closing: AbortSignal;
  readonly #slots: Slots;

  constructor(options: JsLaneOptions, closing: AbortSignal) {
    this.#options = options;
    this.#closing = closing;
    this.#slots = new Slots(options.threads);
  }

  #pool(): Piscina {
    this.#piscina ??= new Piscina({
      filename: workerFile(),
      minThreads: this.#options.threads,
      maxThreads: this.#options.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      workerData: { heapCeilingBytes: this.#options.heapCeilingBytes },
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
    });
    return this.#piscina;
  }

  /** Starts the worker threads now, so the first JS hook does not wait for them. */
  warm(): void {
    if (!this.#closing.aborted) this.#pool();
  }

  /** Workers currently alive (for leak checks). */
  get threads(): number {
    return this.#piscina?.threads.length ?? 0;
  }

  async run(task: JsTask, budgetMs: number, signal?: AbortSignal): Promise<JsLaneResult> {
    if (this.#closing.aborted)
      return { ran: false, reason: 'pool_closed', message: 'the executor is closed', queuedMs: 0 };
    const queuedAt = performance.now();
    try {
      await this.#slots.acquire(signal);
    } catch (err) {
      const closed = err instanceof SlotsClosedError;
      const queuedMs = performance.now() - queuedAt;
      return closed
        ? { ran: false, reason: 'pool_closed', message: 'the executor is closed', queuedMs }
        : {
            ran: false,
            reason: 'aborted',
            message: 'the dispatch was aborted before the hook started',
            queuedMs,
          };
    }
    const queuedMs = performance.now() - queuedAt;
    const grace = this.#options.backstopGraceMs;
    const backstop = new AbortController();
    const timer = setTimeout(() => backstop.abort(new Error('backstop')), budgetMs + grace);
    const link = new LinkedAbort(signal, this.#closing, backstop.signal);
    try {
      const value = (await this.#pool().run(
        { ...task, submittedAt: performance.timeOrigin + performance.now() },
        { signal: link.signal },
      )) as JsTaskResult;
      return { ran: true, value, queuedMs };
    } catch (err) {
      if (backstop.signal.aborted && !signal?.aborted && !this.#closing.aborted) {
        const message = `no answer within the deadline + ${grace} ms grace (the hook did not yield to its interrupt); its worker thread was terminated and replaced`;
        return { ran: false, reason: 'timeout', message, queuedMs };
      }
      if (this.#closing.aborted)
        return { ran: false, reason: 'pool_closed', message: 'the executor is closed', queuedMs };
      if (signal?.aborted)
        return {
          ran: false,
          reason: 'aborted',
          message: 'the dispatch was aborted; the worker thread was terminated',
          queuedMs,
        };
      return {
        ran: false,
        reason: 'worker_crashed',
        message: `the QuickJS worker failed: ${(err as Error).message}; it was replaced`,
        queuedMs,
      };
    } finally {
      clearTimeout(timer);
      link.dispose();
      this.#slots.release();
    }
  }

  /** Stats of one worker thread (tests, leak checks); with one thread, of the only one. */
  async stats(): Promise<unknown> {
    await this.#slots.acquire();
    try {
      return await this.#pool().run(null, { name: 'stats' });
    } finally {
      this.#slots.release();
    }
  }

  async close(): Promise<void> {
    this.#slots.close();
    const p = this.#piscina;
    this.#piscina = undefined;
    if (p !== undefined) await p.destroy();
  }
}
