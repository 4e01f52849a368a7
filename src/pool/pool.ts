// The pool layer: every hook execution goes through it. It owns concurrency (slots per lane),
// queueing (FIFO, abortable) and deadlines, and on close() leaves no process, thread or scratch
// directory behind. Command hooks are spawned from the main thread (see sandbox/command/run-command.ts
// for why); the QuickJS lane runs on Piscina workers.

import { setMaxListeners } from 'node:events';
import { ProcessGroups } from '../../sandbox/command/kill-group.js';
import { runCommand } from '../../sandbox/command/run-command.js';
import type { CommandOutcome, CommandTask } from '../contract/command-task.js';
import type { JsTask } from '../contract/js-task.js';
import type { TenantLimits } from './fair-scheduler.js';
import { JsLane, type JsLaneResult, type LaneLoad } from './js-lane.js';
import { LinkedAbort } from './linked-abort.js';
import { ScratchDirs } from './scratch.js';
import { Turns } from './turns.js';

export interface PoolOptions {
  readonly maxConcurrentCommands: number;
  readonly killGraceMs: number;
  /** QuickJS worker threads. */
  readonly jsThreads: number;
  /** Hard cap of each QuickJS worker's heap. */
  readonly jsHeapCeilingBytes: number;
  /** Time beyond a JS task's deadlines before its worker thread is terminated. */
  readonly jsBackstopGraceMs: number;
  /** Per-tenant scheduling limits ('' is the default tenant). */
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
  /** Directory under which per-invocation scratch dirs are made (default: a tmpfs if available). */
  readonly scratchBase?: string | undefined;
}

/** A lane's answer: the run's outcome, or why it never ran. */
export type LaneOutcome<T> =
  | { readonly ran: true; readonly value: T; readonly queuedMs: number }
  | {
      readonly ran: false;
      readonly reason: 'aborted' | 'pool_closed' | 'queue_full';
      readonly queuedMs: number;
    };

export type CommandRequest = Omit<CommandTask, 'scratchDir' | 'killGraceMs'>;

export class HookPool {
  readonly #options: PoolOptions;
  readonly #commandTurns: Turns;
  readonly #scratch: ScratchDirs;
  readonly #closing = new AbortController();
  readonly #running = new Set<Promise<unknown>>();
  readonly #groups = new ProcessGroups();
  readonly #js: JsLane;

  constructor(options: PoolOptions) {
    this.#options = options;
    // Every hook in flight links to the closing signal (and unlinks when done): as many listeners
    // as hooks running, which is no leak, so no MaxListenersExceededWarning past 10.
    setMaxListeners(0, this.#closing.signal);
    this.#commandTurns = new Turns(options.maxConcurrentCommands, options.tenantLimits);
    this.#scratch = new ScratchDirs(options.scratchBase);
    this.#js = new JsLane(
      {
        threads: options.jsThreads,
        heapCeilingBytes: options.jsHeapCeilingBytes,
        backstopGraceMs: options.jsBackstopGraceMs,
        tenantLimits: options.tenantLimits,
      },
      this.#closing.signal,
    );
  }

  /** Process groups that may still have members (leak checks). */
  liveProcessGroups(): number[] {
    return this.#groups.live();
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /**
   * Runs a command hook: waits for its tenant's turn, prepares a scratch dir, spawns, cleans up.
   * `onStart` is called when it actually starts.
   */
  async runCommand(
    request: CommandRequest,
    signal?: AbortSignal,
    tenant = '',
    onStart?: () => void,
  ): Promise<LaneOutcome<CommandOutcome>> {
    const queuedAt = performance.now();
    const turn = this.closed ? 'closed' : await this.#commandTurns.acquire(tenant, signal);
    const queuedMs = performance.now() - queuedAt;
    if (turn !== 'granted') return { ran: false, reason: turn === 'closed' ? 'pool_closed' : turn, queuedMs };
    onStart?.();
    let ranMs = 0;
    const link = new LinkedAbort(signal, this.#closing.signal);
    let scratchDir: string | undefined;
    const run = (async () => {
      scratchDir = this.#scratch.create(tenant);
      const etcDir = request.isolation === 'namespace' ? this.#scratch.etcSnapshot() : undefined;
      return runCommand(
        {
          ...request,
          scratchDir,
          killGraceMs: this.#options.killGraceMs,
          ...(etcDir === undefined ? {} : { etcDir }),
        },
        this.#groups,
        link.signal,
      );
    })();
    this.#running.add(run);
    try {
      const value = await run;
      ranMs = value.durationMs;
      if (value.kind === 'aborted' && this.closed && !signal?.aborted)
        return { ran: false, reason: 'pool_closed', queuedMs };
      return { ran: true, value, queuedMs };
    } finally {
      this.#running.delete(run);
      link.dispose();
      this.#commandTurns.release(tenant, ranMs);
      if (scratchDir !== undefined) this.#scratch.remove(scratchDir);
    }
  }

  /** Runs JS hooks (one, or a serial run) on the QuickJS lane; `budgetMs` is their summed deadline. */
  runJs(task: JsTask, budgetMs: number, signal?: AbortSignal, onStart?: () => void): Promise<JsLaneResult> {
    return this.#js.run(task, budgetMs, signal, onStart);
  }

  /** Starts the QuickJS workers ahead of the first JS hook. */
  warmJs(): void {
    this.#js.warm();
  }

  /** QuickJS worker threads alive (leak checks). */
  get jsThreads(): number {
    return this.#js.threads;
  }

  /** Each lane's load now (metrics: queue depth and work in flight per tenant, slots in use). */
  load(): { command: LaneLoad; js: LaneLoad } {
    const t = this.#commandTurns;
    return { command: { capacity: t.capacity, busy: t.running, tenants: t.counts() }, js: this.#js.load() };
  }

  /** A QuickJS worker's stats (tests and leak checks). */
  jsStats(): Promise<unknown> {
    return this.#js.stats();
  }

  /**
   * Runs a trusted in-process callback under its deadline. The callback gets a signal that aborts at
   * the deadline or on abort; its promise is abandoned (it cannot be killed: it is trusted code).
   */
  async runTrusted<T>(
    fn: (signal: AbortSignal) => T | Promise<T>,
    deadlineMs: number,
    signal?: AbortSignal,
  ): Promise<
    LaneOutcome<{ kind: 'ok'; value: T } | { kind: 'threw'; error: unknown } | { kind: 'timeout' }>
  > {
    if (this.closed) return { ran: false, reason: 'pool_closed', queuedMs: 0 };
    if (signal?.aborted) return { ran: false, reason: 'aborted', queuedMs: 0 };
    const link = new LinkedAbort(signal, this.#closing.signal);
    let timer: NodeJS.Timeout | undefined;
    try {
      const value = await new Promise<
        | { kind: 'ok'; value: T }
        | { kind: 'threw'; error: unknown }
        | { kind: 'timeout' }
        | { kind: 'aborted' }
      >((resolve) => {
        timer = setTimeout(() => {
          resolve({ kind: 'timeout' });
          link.controller.abort(new Error('deadline'));
        }, deadlineMs);
        link.signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
        Promise.resolve()
          .then(() => fn(link.signal))
          .then(
            (v) => resolve({ kind: 'ok', value: v }),
            (error: unknown) => resolve({ kind: 'threw', error }),
          );
      });
      if (value.kind === 'aborted')
        return {
          ran: false,
          reason: this.closed && !signal?.aborted ? 'pool_closed' : 'aborted',
          queuedMs: 0,
        };
      return { ran: true, value, queuedMs: 0 };
    } finally {
      clearTimeout(timer);
      link.dispose();
    }
  }

  /** Stops everything: queued runs end `pool_closed`, running ones are killed; waits for cleanup. */
  async close(): Promise<void> {
    if (!this.closed) this.#closing.abort(new Error('pool closed'));
    this.#commandTurns.close();
    await Promise.allSettled([...this.#running]);
    this.#groups.dispose();
    await this.#js.close();
    await this.#scratch.close();
  }
}
