// The in-process async queue (the default: no Redis). A submitted run reserves one of its tenant's
// `maxAsyncQueued` places (or is refused queue_full), waits until its dispatch has answered, then
// waits its tenant's turn in a fair rotation (the pool's TenantQueues: a tenant with a thousand
// queued runs does not make another wait behind all of them), and runs on the pool like any hook,
// at most `concurrency` at once. A failed attempt is tried again after its backoff, `retries` times.
//
// close() aborts: runs not started yet end `not-run` (`pool_closed`), running ones are stopped
// (their hooks killed) and end with that failure; each gets its completion (audit record, events).
// Callers that would rather let them finish call drain() first (Executor.close({ drainMs })).
import { hookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { AsyncJob } from '../dispatch/async-job.js';
import type { Generation } from '../dispatch/generation.js';
import { TenantQueues } from '../pool/tenant-queues.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { type AsyncCompletion, completionOf, notRunCompletion } from './async-events.js';
import { retryDelayMs } from './async-job.js';
import { type AsyncQueue, maxAsyncQueuedFor, type QueueHost, type QueueStatus } from './async-queue.js';
import { MemoryFeed } from './event-feed.js';
import { IdleWaiters } from './idle-waiters.js';
import { deliverLocally, retryable, runAttempt } from './run-job.js';

interface Entry {
  readonly job: AsyncJob;
  /** The job's tenant as the queue keys it ('' = none), normalised once at submit. */
  readonly tenant: string;
  readonly hook: HookDefinition & { readonly async: NonNullable<HookDefinition['async']> };
  /** The generation its dispatch ran on: the run uses the same configuration. */
  readonly gen: Generation;
  attempts: number;
  timer?: NodeJS.Timeout;
}

const CLOSED = 'the executor closed before this async hook ran';

export class EmbeddedQueue implements AsyncQueue {
  readonly feed: MemoryFeed;
  readonly #host: QueueHost;
  readonly #concurrency: number;
  readonly #closing = new AbortController();
  /** Reserved places per tenant ('' = no tenant): from submit to completion. */
  readonly #reserved = new Map<string, number>();
  /** Submitted, their dispatch not answered yet. */
  readonly #held = new Map<string, Entry>();
  readonly #ready = new TenantQueues<Entry>(() => ({}));
  readonly #waiting = new Set<Entry>();
  readonly #running = new Set<Promise<void>>();
  #pending = 0;
  #pumpScheduled = false;
  readonly #idle = new IdleWaiters();

  constructor(host: QueueHost, options: { concurrency: number; replayEvents: number }) {
    this.#host = host;
    this.#concurrency = options.concurrency;
    this.feed = new MemoryFeed(options.replayEvents);
  }

  get #closed(): boolean {
    return this.#closing.signal.aborted;
  }

  submit(job: AsyncJob, hook: HookDefinition, gen: Generation): HookAnswer {
    if (this.#closed) return notRunAnswer(hookError('pool_closed', 'the executor is closed'));
    const tenant = job.tenant ?? '';
    const max = maxAsyncQueuedFor(gen, job.tenant);
    const n = this.#reserved.get(tenant) ?? 0;
    if (n >= max) {
      const message = `limits.maxAsyncQueued (${max}) reached: this tenant has ${n} async hooks queued or running; the hook was not queued`;
      return notRunAnswer(
        hookError('queue_full', message, {
          ...(job.tenant !== undefined ? { tenant: job.tenant } : {}),
          limit: max,
        }),
      );
    }
    this.#reserved.set(tenant, n + 1);
    this.#pending++;
    this.#held.set(job.asyncId, { job, tenant, hook: hook as Entry['hook'], gen, attempts: 0 });
    return { kind: 'queued', asyncId: job.asyncId, latencyMs: 0, queuedMs: 0 };
  }

  release(jobs: readonly AsyncJob[]): void {
    for (const job of jobs) {
      const entry = this.#held.get(job.asyncId);
      if (entry === undefined) continue;
      this.#held.delete(job.asyncId);
      this.#ready.push(entry.tenant, entry);
    }
    this.#schedulePump();
  }

  /** Starts runs on the next turn of the event loop: the dispatch's caller gets its answer first. */
  #schedulePump(): void {
    if (this.#pumpScheduled || this.#closed) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#concurrency) {
      const next = this.#ready.next(1);
      if (next === undefined) return;
      const run = this.#attempt(next.items[0]!).finally(() => {
        this.#running.delete(run);
        this.#pump();
      });
      this.#running.add(run);
    }
  }

  async #attempt(entry: Entry): Promise<void> {
    entry.attempts++;
    const { answer, startedAt } = await runAttempt(
      entry.gen,
      this.#host.context(),
      entry.hook,
      entry.job,
      this.#closing.signal,
    );
    if (!this.#closed && retryable(answer) && entry.attempts <= entry.hook.async.retries) {
      this.#waiting.add(entry);
      entry.timer = setTimeout(
        () => {
          this.#waiting.delete(entry);
          this.#ready.push(entry.tenant, entry);
          this.#pump();
        },
        retryDelayMs(entry.hook.async, entry.attempts),
      );
      return;
    }
    const def = entry.gen.catalogue.get(entry.job.event)!;
    this.#finish(entry, completionOf(def, entry.hook, entry.job, answer, entry.attempts, startedAt));
  }

  #finish(entry: Entry, c: AsyncCompletion): void {
    const n = (this.#reserved.get(entry.tenant) ?? 1) - 1;
    if (n === 0) this.#reserved.delete(entry.tenant);
    else this.#reserved.set(entry.tenant, n);
    this.#pending--;
    deliverLocally(this.#host.context(), c);
    this.feed.publish(entry.job.tenant, 'async.completed', c.completed);
    if (c.rewake !== undefined) this.feed.publish(entry.job.tenant, 'rewake', c.rewake);
    if (this.#pending === 0) this.#idle.wake();
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  status(): QueueStatus {
    return { mode: 'embedded', unavailable: 0, pending: this.#pending, running: this.#running.size };
  }

  drain(timeoutMs: number): Promise<'idle' | 'timeout'> {
    return this.#idle.wait(this.#pending === 0, timeoutMs);
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closing.abort(new Error('the executor is closing'));
      const notStarted = [...this.#held.values(), ...this.#ready.drain(), ...this.#waiting];
      this.#held.clear();
      this.#waiting.clear();
      for (const e of notStarted) {
        clearTimeout(e.timer);
        this.#finish(e, notRunCompletion(e.job, e.hook.type, hookError('pool_closed', CLOSED)));
      }
    }
    await Promise.all([...this.#running]);
    this.feed.endAll('the executor closed');
  }
}
