// The QuickJS lane: a Piscina pool whose workers (sandbox/js/worker.ts) each own one QuickJS module.
// Created on the first JS hook (or when the executor has JS hooks), workers stay warm
// (minThreads = maxThreads). Queueing happens here, in front of Piscina: at most one batch per
// thread is in flight, so a batch starts as soon as it is sent and its deadline clock is honest.
// Under load, queued tasks of the same tenant travel to a worker together (one message for up to
// MAX_BATCH tasks: the message, not the hook, is the larger cost of a trivial hook); an idle lane
// sends each task alone. The QuickJS interrupt handler enforces each hook's deadline; the backstop
// for a hook that does not yield to it (QuickJS's parser, for one, never checks it) is aborting the
// Piscina task at the batch's summed deadlines + grace, which terminates that worker thread.
import type { Piscina } from 'piscina';
import { hookError } from '../contract/error-codes.js';
import type { JsTask, JsTaskResult } from '../contract/js-task.js';
import { destroyWhenLoaded } from './destroy-piscina.js';
import { type LaneLoad, type LaneResult, type LaneRunOptions, refusal } from './lane.js';
import { createQuickJsPool } from './piscina-pool.js';
import { type BatchBudget, type TenantLimits, TenantQueues } from './tenant-queues.js';

/** QuickJS runtimes/contexts found alive when a lane closed (read by the test suite's leak check). */
export const LEAKS: Record<string, unknown>[] = [];

/** Most tasks one message carries to a worker. */
export const MAX_BATCH = 8;
/**
 * A batch holds tasks whose expected run times add up to at most this: trivial hooks travel
 * together, slow ones alone, so a batch never makes another tenant wait long.
 */
export const BATCH_BUDGET_MS = 2;

export interface JsLaneOptions {
  readonly threads: number;
  readonly heapCeilingBytes: number;
  /** Extra time a batch gets beyond its hooks' deadlines before its worker thread is terminated. */
  readonly backstopGraceMs: number;
  /** Per-tenant scheduling limits ('' is the default tenant). */
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
}

export type JsLaneResult = LaneResult<JsTaskResult>;

/** A task's shape for run-time estimates: its hooks, in order. */
const shape = (task: JsTask) => task.hooks.map((h) => h.id).join('\u0000');

/**
 * The abort signal Piscina gets for a batch: Piscina accepts any object with `aborted`, `reason`
 * and `once`/`removeListener` (EventEmitter style); Node's AbortController costs more than a trivial
 * hook.
 */
class BatchAbort {
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

interface Entry {
  readonly task: JsTask;
  /** The task's hook ids, in order: the key of its run-time estimate. */
  readonly shape: string;
  readonly budgetMs: number;
  readonly signal: AbortSignal | undefined;
  readonly queuedAt: number;
  readonly resolve: (r: JsLaneResult) => void;
  sentAt: number;
  done: boolean;
  batch: Batch | undefined;
  onAbort: (() => void) | undefined;
  readonly onStart: (() => void) | undefined;
}

interface Batch {
  readonly entries: Entry[];
  readonly abort: BatchAbort;
  why: 'backstop' | 'abort' | 'close' | undefined;
}

export class JsLane {
  readonly #options: JsLaneOptions;
  #piscina: Piscina | undefined;
  readonly #closing: AbortSignal;
  readonly #queue: TenantQueues<Entry>;
  /** Recent run time of each task shape (its hook ids), for batching. */
  readonly #expectedMs = new Map<string, number>();
  readonly #running = new Set<Batch>();
  /** A task whose run time is unknown fills a batch on its own. */
  readonly #batchBudget: BatchBudget<Entry> = {
    cost: (e) => this.#expectedMs.get(e.shape) ?? BATCH_BUDGET_MS,
    budget: BATCH_BUDGET_MS,
  };

  constructor(options: JsLaneOptions, closing: AbortSignal) {
    this.#options = options;
    this.#closing = closing;
    this.#queue = new TenantQueues(options.tenantLimits ?? (() => ({})), () => this.#pump());
  }

  #pool(): Piscina {
    this.#piscina ??= createQuickJsPool({
      threads: this.#options.threads,
      heapCeilingBytes: this.#options.heapCeilingBytes,
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

  /** Runs a task (one JS hook, or a serial run of them); its budget is the sum of their deadlines. */
  /** Threads, batches in flight, and each tenant's tasks waiting and running (metrics). */
  load(): LaneLoad {
    return { capacity: this.#options.threads, busy: this.#running.size, tenants: this.#queue.counts() };
  }

  run(task: JsTask, options: LaneRunOptions = {}): Promise<JsLaneResult> {
    const { signal, onStart } = options;
    if (this.#closing.aborted) return Promise.resolve(refusal('pool_closed', 0));
    if (signal?.aborted) return Promise.resolve(refusal('aborted', 0));
    const budgetMs = task.hooks.reduce((sum, h) => sum + h.deadlineMs, 0);
    return new Promise<JsLaneResult>((resolve) => {
      const entry: Entry = {
        task,
        shape: shape(task),
        budgetMs,
        signal,
        queuedAt: performance.now(),
        resolve,
        sentAt: 0,
        done: false,
        batch: undefined,
        onAbort: undefined,
        onStart,
      };
      if (signal !== undefined) {
        entry.onAbort = () => this.#abortEntry(entry);
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      if (!this.#queue.push(task.tenant ?? '', entry)) {
        const message = `tenant "${task.tenant ?? ''}" has its maximum of hooks queued (maxQueued); the hook was not run`;
        this.#settle(entry, refusal(hookError('queue_full', message, { tenant: task.tenant ?? '' }), 0));
        return;
      }
      this.#pump();
    });
  }

  #settle(entry: Entry, result: JsLaneResult): void {
    if (entry.done) return;
    entry.done = true;
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(result);
  }

  #abortEntry(entry: Entry): void {
    if (entry.done) return;
    const batch = entry.batch;
    if (batch === undefined) {
      this.#queue.remove(entry.task.tenant ?? '', entry);
      const queuedMs = performance.now() - entry.queuedAt;
      this.#settle(entry, refusal('aborted', queuedMs));
      return;
    }
    const queuedMs = entry.sentAt - entry.queuedAt;
    if (batch.entries.every((e) => e === entry || e.done)) {
      // Nobody else waits on this worker: stop the hook now (Piscina terminates the thread).
      batch.why ??= 'abort';
      batch.abort.abort(new Error('aborted'));
    }
    // Otherwise the hook finishes within its own deadline; its answer is dropped.
    this.#settle(
      entry,
      refusal({ code: 'aborted', message: 'the dispatch was aborted; the hook was stopped' }, queuedMs, true),
    );
  }

  #pump(): void {
    while (this.#queue.size > 0 && this.#running.size < this.#options.threads) {
      const free = this.#options.threads - this.#running.size;
      // An idle lane sends tasks one by one; a loaded one batches the next tenant's queued tasks
      // when they are known to be quick (one tenant per batch: a backstop termination stays within it).
      const max = Math.min(MAX_BATCH, Math.ceil(this.#queue.size / free));
      const next = this.#queue.next(max, this.#batchBudget);
      if (next === undefined) return;
      this.#queue.started(next.tenant, next.items.length);
      this.#send(next.tenant, next.items);
    }
  }

  #learn(k: string, result: JsTaskResult): void {
    let ms = 0;
    for (const o of result.outcomes) if (o.answer.kind !== 'not-run') ms += o.answer.latencyMs;
    const prev = this.#expectedMs.get(k);
    if (this.#expectedMs.size > 10_000) this.#expectedMs.clear();
    this.#expectedMs.set(k, prev === undefined ? ms : prev * 0.8 + ms * 0.2);
  }

  #send(tenant: string, entries: Entry[]): void {
    const batch: Batch = { entries, abort: new BatchAbort(), why: undefined };
    this.#running.add(batch);
    const now = performance.now();
    const submittedAt = performance.timeOrigin + now;
    let budget = 0;
    for (const e of entries) {
      e.batch = batch;
      e.sentAt = now;
      budget += e.budgetMs;
      e.onStart?.();
    }
    const grace = this.#options.backstopGraceMs;
    const timer = setTimeout(() => {
      batch.why ??= 'backstop';
      batch.abort.abort(new Error('backstop'));
    }, budget + grace);
    const tasks = entries.map((e) => ({ ...e.task, submittedAt }));
    this.#pool()
      .run(tasks, { signal: batch.abort })
      .then(
        (results: JsTaskResult[]) => {
          for (const [i, e] of entries.entries()) {
            this.#learn(e.shape, results[i]!);
            this.#settle(e, { ran: true, value: results[i]!, queuedMs: e.sentAt - e.queuedAt });
          }
        },
        (err: unknown) => {
          for (const e of entries) {
            const queuedMs = e.sentAt - e.queuedAt;
            if (batch.why === 'backstop') {
              const message = `no answer within the deadline + ${grace} ms grace (a hook did not yield to its interrupt); its worker thread was terminated and replaced`;
              this.#settle(e, refusal({ code: 'timeout', message }, queuedMs, true));
            } else if (batch.why === 'close') {
              this.#settle(e, refusal('pool_closed', queuedMs, true));
            } else {
              const message = `the QuickJS worker failed: ${(err as Error).message}; it was replaced`;
              this.#settle(e, refusal({ code: 'worker_crashed', message }, queuedMs, true));
            }
          }
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.#running.delete(batch);
        this.#queue.finished(tenant, entries.length, performance.now() - now);
        this.#pump();
      });
  }

  /** Stats of a worker thread (tests, leak checks); with one thread, of the only one. */
  stats(): Promise<unknown> {
    // After close() there is no pool, and none may be made: it would never be destroyed.
    if (this.#closing.aborted) return Promise.reject(new Error('the QuickJS lane is closed'));
    return this.#pool().run(null, { name: 'stats' });
  }

  async close(): Promise<void> {
    for (const e of this.#queue.drain())
      this.#settle(e, refusal('pool_closed', performance.now() - e.queuedAt));
    for (const b of this.#running) {
      b.why ??= 'close';
      b.abort.abort(new Error('closed'));
    }
    const p = this.#piscina;
    this.#piscina = undefined;
    if (p === undefined) return;
    const stats = await destroyWhenLoaded(p, this.#options.threads, { name: 'stats' });
    // Every QuickJS runtime and context must have been disposed: the test suite fails otherwise.
    for (const s of stats as { liveRuntimes?: number; liveContexts?: number; threadId?: number }[]) {
      if ((s.liveRuntimes ?? 0) > 0 || (s.liveContexts ?? 0) > 0) LEAKS.push({ ...s, at: 'js-lane close' });
    }
  }
}
