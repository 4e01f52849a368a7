// The QuickJS lane: a Piscina pool whose workers (sandbox/js/worker.ts) each own one QuickJS module.
// A hook's spec goes to each worker thread until it has run a task with it, and again when a worker
// says it no longer holds it. Queueing happens here, in front of Piscina: at most one batch per warm
// thread is in flight, so a batch starts when sent and its deadline clock is honest. Under load, one
// tenant's queued tasks travel together (up to MAX_BATCH per message: the message costs more than a
// trivial hook). The backstop for a hook that ignores its interrupt (QuickJS's parser never checks
// it) aborts the batch at its summed deadlines + grace, terminating the thread.
import type { Piscina } from 'piscina';
import type {
  JsBatch,
  JsBatchResult,
  JsCompileRequest,
  JsCompileResult,
  JsTaskMissing,
  JsTaskResult,
} from '../contract/js-task.js';
import { BatchAbort, batchFailure } from './batch-abort.js';
import { destroyWhenLoaded } from './destroy-piscina.js';
import { compileOn } from './js-compile.js';
import { type Batch, type Entry, type JsCall, type JsLaneResult, shape } from './js-entry.js';

export type { JsCall, JsLaneResult } from './js-entry.js';

import { type LaneLoad, type LaneRunOptions, type QueuedLane, refusal } from './lane.js';
import { createQuickJsPool } from './piscina-pool.js';
import { jsLaneClosed } from './pool-channels.js';
import { abortQueued, enqueue, settleEntry } from './queued-entry.js';
import { SpecHolders } from './spec-holders.js';
import { type BatchBudget, type TenantLimits, TenantQueues } from './tenant-queues.js';
import { type LaneScheduling, laneQueueOptions } from './turns.js';

/** Most tasks one message carries to a worker. */
const MAX_BATCH = 8;
/**
 * A batch holds tasks whose expected run times add up to at most this: trivial hooks travel
 * together, slow ones alone, so a batch never makes another tenant wait long.
 */
const BATCH_BUDGET_MS = 2;

export interface JsLaneOptions {
  readonly threads: number;
  readonly heapCeilingBytes: number;
  /** Extra time a batch gets beyond its hooks' deadlines before its worker thread is terminated. */
  readonly backstopGraceMs: number;
  /** Per-tenant scheduling limits ('' is the default tenant). */
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
  /** Fair share (a slot is a thread's batch) and default queue bound across tenants. */
  readonly scheduling?: LaneScheduling | undefined;
  /** Hook specs each worker keeps (default 4 096; tests make it small). */
  readonly workerSpecCapacity?: number | undefined;
}

export class JsLane implements QueuedLane<JsCall, JsTaskResult> {
  readonly #options: JsLaneOptions;
  #piscina: Piscina | undefined;
  readonly #closing: AbortSignal;
  readonly #queue: TenantQueues<Entry>;
  /** Recent run time of each task shape (its hook ids), for batching. */
  readonly #expectedMs = new Map<string, number>();
  readonly #running = new Set<Batch>();
  /** Which worker threads hold which hook specs. */
  readonly #holders = new SpecHolders();
  /** A task whose run time is unknown fills a batch on its own. */
  readonly #batchBudget: BatchBudget<Entry> = {
    cost: (e) => this.#expectedMs.get(e.shape) ?? BATCH_BUDGET_MS,
    budget: BATCH_BUDGET_MS,
  };

  constructor(options: JsLaneOptions, closing: AbortSignal) {
    this.#options = options;
    this.#closing = closing;
    this.#queue = new TenantQueues(
      options.tenantLimits ?? (() => ({})),
      () => this.#pump(),
      laneQueueOptions(options.threads, options.scheduling ?? {}),
    );
  }

  #pool(): Piscina {
    this.#piscina ??= createQuickJsPool({
      threads: this.#options.threads,
      heapCeilingBytes: this.#options.heapCeilingBytes,
      specCapacity: this.#options.workerSpecCapacity,
    });
    return this.#piscina;
  }

  /** Starts the worker threads now, so the first JS hook does not wait for them. */
  warm(): void {
    if (!this.#closing.aborted) this.#pool();
  }

  /**
   * Ends every worker thread now, as a crash would: their batches fail with worker_crashed (a hook
   * then runs again on a fresh worker) and Piscina starts new ones. For machinery-loss tests.
   */
  async terminateThreads(): Promise<void> {
    await Promise.all((this.#piscina?.threads ?? []).map((t) => t.terminate()));
  }

  /** Workers currently alive (for leak checks). */
  get threads(): number {
    return this.#piscina?.threads.length ?? 0;
  }

  /** Threads, batches in flight, and each tenant's tasks waiting and running (metrics). */
  load(): LaneLoad {
    return { capacity: this.#options.threads, busy: this.#running.size, tenants: this.#queue.counts() };
  }

  /** Runs a task (one JS hook, or a serial run of them); its budget is the sum of their deadlines. */
  run(call: JsCall, options: LaneRunOptions = {}): Promise<JsLaneResult> {
    const { signal, onStart } = options;
    const tenant = options.tenant ?? '';
    const { task } = call;
    if (this.#closing.aborted) return Promise.resolve(refusal('pool_closed', 0));
    if (signal?.aborted) return Promise.resolve(refusal('aborted', 0));
    let budgetMs = 0;
    for (const s of call.specs) budgetMs += s.deadlineMs;
    return new Promise<JsLaneResult>((resolve) => {
      const entry: Entry = {
        call,
        shape: shape(task),
        tenant,
        budgetMs,
        signal,
        queuedAt: performance.now(),
        resolve,
        sentAt: 0,
        done: false,
        resent: false,
        batch: undefined,
        onAbort: undefined,
        onStart,
      };
      if (enqueue<JsTaskResult, Entry>(this.#queue, entry, (e) => this.#abortEntry(e))) this.#pump();
    });
  }

  #settle(entry: Entry, result: JsLaneResult): void {
    settleEntry(entry, result);
  }

  #abortEntry(entry: Entry): void {
    if (entry.done || abortQueued<JsTaskResult, Entry>(this.#queue, entry)) return;
    const batch = entry.batch!;
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
    let budget = 0;
    for (const e of entries) {
      e.batch = batch;
      e.sentAt = now;
      budget += e.budgetMs;
      if (!e.resent) e.onStart?.();
    }
    const timer = setTimeout(() => {
      batch.why ??= 'backstop';
      batch.abort.abort(new Error('backstop'));
    }, budget + this.#options.backstopGraceMs);
    const message: JsBatch = {
      tasks: entries.map((e) => ({ ...e.call.task, submittedAt: performance.timeOrigin + now })),
      ...this.#holders.toSend(
        entries.map((e) => ({ specs: e.call.specs, force: e.resent })),
        this.#piscina?.threads ?? [],
      ),
    };
    const missing: Entry[] = [];
    this.#pool()
      .run(message, { signal: batch.abort })
      .then(
        ({ threadId, results }: JsBatchResult) => {
          for (const [i, e] of entries.entries()) {
            const r = results[i]!;
            if ('missing' in r) {
              this.#missing(e, r, missing);
              continue;
            }
            for (const s of e.call.specs) this.#holders.add(s.key, threadId);
            this.#learn(e.shape, r);
            this.#settle(e, { ran: true, value: r, queuedMs: e.sentAt - e.queuedAt });
          }
        },
        (err: unknown) => {
          const grace = this.#options.backstopGraceMs;
          for (const e of entries)
            this.#settle(e, batchFailure(batch.why, err, grace, e.sentAt - e.queuedAt));
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.#running.delete(batch);
        this.#queue.finished(tenant, entries.length, performance.now() - now);
        if (missing.length > 0 && !this.#closing.aborted) {
          this.#queue.started(tenant, missing.length);
          this.#send(tenant, missing);
        }
        this.#pump();
      });
  }

  /** A worker did not hold a task's specs (it dropped them): the task goes again, with them. */
  #missing(e: Entry, r: JsTaskMissing, resend: Entry[]): void {
    for (const key of r.missing) this.#holders.forget(key);
    if (e.done) return;
    if (!e.resent) {
      e.resent = true;
      resend.push(e);
      return;
    }
    const message = `the QuickJS worker did not keep the hook's source it was just sent (${r.missing.length} missing)`;
    this.#settle(e, refusal({ code: 'worker_crashed', message }, e.sentAt - e.queuedAt, true));
  }

  /** Compiles a hook's module on a worker, under the hook's deadline (hookwarden validate). */
  compile(request: JsCompileRequest, deadlineMs: number): Promise<JsCompileResult> {
    if (this.#closing.aborted)
      return Promise.resolve({ kind: 'limit', limit: 'memory', message: 'the QuickJS lane is closed' });
    return compileOn(this.#pool(), request, deadlineMs, this.#options.backstopGraceMs);
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
    jsLaneClosed.publish({ stats });
  }
}
