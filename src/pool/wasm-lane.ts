// The wasm lane: a Piscina pool whose workers (sandbox/wasm/worker.ts) run wasm hook calls, shaped
// and scheduled like the QuickJS lane (js-lane.ts): per-tenant queues in front of Piscina, at most one
// batch per thread in flight, a tenant's quick queued calls travelling together under load, a hook's
// spec (its compiled module: shared, not copied) sent to each thread once. A wasm module cannot be
// interrupted, so the deadline is enforced here: each batch has a timer that reads which call the
// worker is on and since when (shared progress cells, wasm-batch.ts); a call past its deadline has its thread
// terminated (Piscina starts another) and ends `timeout`, and the calls after it run again elsewhere.
import type { Piscina } from 'piscina';
import { hookError } from '../contract/error-codes.js';
import type { WasmBatchResult, WasmOutcome, WasmTask, WasmWorkerSpec } from '../contract/wasm-task.js';
import { destroyWhenLoaded } from './destroy-piscina.js';
import { type LaneLoad, type LaneResult, type LaneRunOptions, type QueuedLane, refusal } from './lane.js';
import { createWasmPool } from './piscina-pool.js';
import { abortQueued, enqueue, settleEntry } from './queued-entry.js';
import { SpecHolders } from './spec-holders.js';
import { type BatchBudget, type TenantLimits, TenantQueues } from './tenant-queues.js';
import { type LaneScheduling, laneQueueOptions } from './turns.js';
import { type Batch as BatchOf, newBatch, ProgressSlots, watchDeadline } from './wasm-batch.js';

const MAX_BATCH = 8;
/** A batch holds calls whose expected run times add up to at most this (unknown ones go alone). */
const BATCH_BUDGET_MS = 2;

export interface WasmLaneOptions {
  readonly threads: number;
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
  readonly scheduling?: LaneScheduling | undefined;
}

/** A call for the lane: the worker task (without its submission time) and its hook's spec. */
export interface WasmCall {
  readonly task: Omit<WasmTask, 'submittedAt'>;
  readonly spec: WasmWorkerSpec;
}

export type WasmLaneResult = LaneResult<WasmOutcome>;

interface Entry {
  readonly call: WasmCall;
  readonly tenant: string;
  readonly signal: AbortSignal | undefined;
  readonly queuedAt: number;
  readonly resolve: (r: WasmLaneResult) => void;
  readonly onStart: (() => void) | undefined;
  onAbort: (() => void) | undefined;
  sentAt: number;
  done: boolean;
  /** Sent again (its spec was missing, or a call before it in its batch hung). */
  resent: boolean;
  batch: Batch | undefined;
}

type Batch = BatchOf<Entry>;

export class WasmLane implements QueuedLane<WasmCall, WasmOutcome> {
  readonly #options: WasmLaneOptions;
  #piscina: Piscina | undefined;
  readonly #closing: AbortSignal;
  readonly #queue: TenantQueues<Entry>;
  readonly #expectedMs = new Map<string, number>();
  readonly #running = new Set<Batch>();
  readonly #holders = new SpecHolders();
  readonly #slots: ProgressSlots;
  readonly #batchBudget: BatchBudget<Entry> = {
    cost: (e) => this.#expectedMs.get(e.call.spec.key) ?? BATCH_BUDGET_MS,
    budget: BATCH_BUDGET_MS,
  };

  constructor(options: WasmLaneOptions, closing: AbortSignal) {
    this.#options = options;
    this.#closing = closing;
    this.#slots = new ProgressSlots(options.threads);
    this.#queue = new TenantQueues(
      options.tenantLimits ?? (() => ({})),
      () => this.#pump(),
      laneQueueOptions(options.threads, options.scheduling ?? {}),
    );
  }

  #pool(): Piscina {
    this.#piscina ??= createWasmPool({ threads: this.#options.threads, progress: this.#slots.buffer });
    return this.#piscina;
  }

  /** Starts the worker threads now, so the first wasm hook does not wait for them. */
  warm(): void {
    if (!this.#closing.aborted) this.#pool();
  }

  /** Worker threads alive (leak checks). */
  get threads(): number {
    return this.#piscina?.threads.length ?? 0;
  }

  load(): LaneLoad {
    return { capacity: this.#options.threads, busy: this.#running.size, tenants: this.#queue.counts() };
  }

  /** Runs one wasm hook call. */
  run(call: WasmCall, options: LaneRunOptions = {}): Promise<WasmLaneResult> {
    const { signal, onStart } = options;
    const tenant = options.tenant ?? '';
    if (this.#closing.aborted) return Promise.resolve(refusal('pool_closed', 0));
    if (signal?.aborted) return Promise.resolve(refusal('aborted', 0));
    return new Promise<WasmLaneResult>((resolve) => {
      const entry: Entry = {
        call,
        tenant,
        signal,
        queuedAt: performance.now(),
        resolve,
        onStart,
        onAbort: undefined,
        sentAt: 0,
        done: false,
        resent: false,
        batch: undefined,
      };
      if (enqueue<WasmOutcome, Entry>(this.#queue, entry, (e) => this.#abortEntry(e))) this.#pump();
    });
  }

  #settle(entry: Entry, result: WasmLaneResult): void {
    settleEntry(entry, result);
  }

  #abortEntry(entry: Entry): void {
    if (entry.done || abortQueued<WasmOutcome, Entry>(this.#queue, entry)) return;
    const batch = entry.batch!;
    if (batch.entries.every((e) => e === entry || e.done)) {
      batch.why ??= 'abort';
      batch.abort.abort(new Error('aborted'));
    }
    const message = 'the dispatch was aborted; the hook was stopped';
    this.#settle(entry, refusal({ code: 'aborted', message }, entry.sentAt - entry.queuedAt, true));
  }

  #pump(): void {
    while (this.#queue.size > 0 && this.#running.size < this.#options.threads) {
      const free = this.#options.threads - this.#running.size;
      const max = Math.min(MAX_BATCH, Math.ceil(this.#queue.size / free));
      const next = this.#queue.next(max, this.#batchBudget);
      if (next === undefined) return;
      this.#queue.started(next.tenant, next.items.length);
      this.#send(next.tenant, next.items);
    }
  }

  #send(tenant: string, entries: Entry[]): void {
    const now = performance.now();
    // At most one batch per thread is in flight, and there is a slot per thread.
    const batch = newBatch(entries, this.#slots, this.#slots.take()!);
    this.#running.add(batch);
    for (const e of entries) {
      e.batch = batch;
      e.sentAt = now;
      if (!e.resent) e.onStart?.();
    }
    batch.timer = setTimeout(() => watchDeadline(batch), Math.min(50, entries[0]!.call.spec.deadlineMs));
    const submittedAt = performance.timeOrigin + now;
    const message = {
      tasks: entries.map((e) => ({ ...e.call.task, submittedAt })),
      ...this.#holders.toSend(
        entries.map((e) => ({ specs: [e.call.spec], force: e.resent })),
        this.#piscina?.threads ?? [],
      ),
      slot: batch.slot,
    };
    const again: Entry[] = [];
    this.#pool()
      .run(message, { signal: batch.abort })
      .then(
        (r: WasmBatchResult) => this.#answered(r, entries, again),
        (err: unknown) => this.#failed(batch, err, again),
      )
      .finally(() => {
        clearTimeout(batch.timer);
        this.#running.delete(batch);
        this.#slots.give(batch.slot);
        this.#queue.finished(tenant, entries.length, performance.now() - now);
        if (again.length > 0 && !this.#closing.aborted) {
          this.#queue.started(tenant, again.length);
          this.#send(tenant, again);
        }
        this.#pump();
      });
  }

  #answered({ threadId, results }: WasmBatchResult, entries: Entry[], again: Entry[]): void {
    for (const [i, e] of entries.entries()) {
      const r = results[i]!;
      if ('missing' in r) {
        this.#holders.forget(e.call.spec.key);
        if (e.done) continue;
        if (!e.resent) {
          e.resent = true;
          again.push(e);
          continue;
        }
        const message = 'the wasm worker did not keep the hook it was just sent';
        this.#settle(e, refusal({ code: 'worker_crashed', message }, e.sentAt - e.queuedAt, true));
        continue;
      }
      this.#holders.add(e.call.spec.key, threadId);
      const prev = this.#expectedMs.get(e.call.spec.key);
      if (this.#expectedMs.size > 10_000) this.#expectedMs.clear();
      this.#expectedMs.set(
        e.call.spec.key,
        prev === undefined ? r.durationMs : prev * 0.8 + r.durationMs * 0.2,
      );
      this.#settle(e, { ran: true, value: r, queuedMs: e.sentAt - e.queuedAt });
    }
  }

  #failed(batch: Batch, err: unknown, again: Entry[]): void {
    for (const [i, e] of batch.entries.entries()) {
      const queuedMs = e.sentAt - e.queuedAt;
      if (batch.why === 'close') this.#settle(e, refusal('pool_closed', queuedMs, true));
      else if (batch.why === 'deadline' && i === batch.hung) {
        const { deadlineMs } = e.call.spec;
        const message = `no answer within ${deadlineMs} ms; the module was stopped (its worker thread was terminated and replaced)`;
        // A late one is the call's own answer to the batch: it never got a thread of its own.
        this.#expectedMs.set(e.call.spec.key, deadlineMs);
        this.#settle(e, refusal(hookError('timeout', message, { deadlineMs }), queuedMs, true));
      } else if (batch.why === 'deadline' && !e.done) {
        // Not this call's fault: wasm calls are pure, so it runs again on another thread.
        e.resent = true;
        again.push(e);
      } else {
        const message = `the wasm worker failed: ${(err as Error).message}; it was replaced`;
        this.#settle(e, refusal({ code: 'worker_crashed', message }, queuedMs, true));
      }
    }
  }

  /** Stats of a worker thread (tests). */
  stats(): Promise<unknown> {
    if (this.#closing.aborted) return Promise.reject(new Error('the wasm lane is closed'));
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
    if (p !== undefined) await destroyWhenLoaded(p, this.#options.threads, { name: 'stats' });
  }
}
