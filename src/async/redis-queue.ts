// The async queue of Redis mode (`queue: { redis }`, `serve --queue redis://…`): each async hook run
// is a BullMQ job (id = asyncId) that any replica with the same hook spec runs. A replica whose
// configuration lacks the job's spec digest hands it back (delayed) and, past `mismatchTimeoutMs`,
// completes it `config_mismatch`. Tenants take turns: a job's priority is its place in its tenant's
// backlog (the in-process queue's fair rotation, approximated). Retries are BullMQ's (attempts and
// backoff from the hook). A job whose replica died is taken again once its lock lapses
// (`lockDurationMs`, 5 s by default, renewed every half of it; lapsed locks are looked for as often). Whoever finishes a job completes it through one Lua script that marks it done
// (SET NX), frees its tenant's place and appends its events to its stream: it completes once.
// If Redis does not answer, submit() fails the hook `queue_unavailable` (its onError decides) at
// once (no offline queue), and `unavailable` counts it (/readyz, metrics). Losing Redis, getting it
// back and a refused password are each reported once (redis-health.ts), and every connection
// reconnects within about a second of Redis coming back.
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { hookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { AsyncJob } from '../dispatch/async-job.js';
import type { Generation } from '../dispatch/generation.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { type AsyncCompletion, completionOf, notRunCompletion } from './async-events.js';
import { backoffOf, findJobHook, parseJobData, queueFailure } from './async-job.js';
import { type AsyncQueue, maxAsyncQueuedFor, type QueueHost, type QueueStatus } from './async-queue.js';
import { IdleWaiters } from './idle-waiters.js';
import { bounded, connectionOf } from './redis-connection.js';
import { RedisFeed, streamKey } from './redis-feed.js';
import { RedisHealth, type RedisTrouble, reconnectDelay } from './redis-health.js';
import { deliverLocally, retryable, runAttempt, writeCompletion } from './run-job.js';

export interface RedisQueueOptions {
  readonly url: string;
  /** Key prefix of every key (BullMQ's and ours). Default "hookwarden". */
  readonly prefix: string;
  readonly concurrency: number;
  readonly replayEvents: number;
  readonly lockDurationMs: number;
  readonly mismatchTimeoutMs: number;
  readonly mismatchRetryMs: number;
  /** false: this replica enqueues but never runs jobs. */
  readonly work: boolean;
  /** Redis lost, back, or refusing the credentials: once per transition (the executor logs it). */
  readonly onTrouble?: ((t: RedisTrouble) => void) | undefined;
}

const QUEUE = 'async-hooks';
/** How long start-up waits for Redis before going on without it (async hooks: queue_unavailable). */
const CONNECT_WAIT_MS = 5_000;
/** Bound on each step of close() (BullMQ waits for Redis, which may be gone). */
const CLOSE_WAIT_MS = 2_000;
const DONE_TTL_MS = 7 * 86_400_000;
/** BullMQ's largest priority (2^21 - 1). */
const MAX_PRIORITY = 2_097_151;

// KEYS: done marker, tenant counter, tenant stream. ARGV: ttl, maxlen, completed json, rewake json or ''.
const COMPLETE = `
if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then
  if tonumber(redis.call('DECR', KEYS[2])) < 0 then redis.call('SET', KEYS[2], '0') end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], '*', 'type', 'async.completed', 'data', ARGV[3])
  if ARGV[4] ~= '' then redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], '*', 'type', 'rewake', 'data', ARGV[4]) end
  return 1
end
return 0`;

export class RedisQueue implements AsyncQueue {
  readonly feed: RedisFeed;
  readonly #o: RedisQueueOptions;
  readonly #host: QueueHost;
  readonly #client: Redis;
  readonly #health: RedisHealth;
  readonly #queue: Queue;
  readonly #worker: Worker | undefined;
  readonly #closing = new AbortController();
  #unavailable = 0;
  #running = 0;
  readonly #idle = new IdleWaiters();

  constructor(host: QueueHost, o: RedisQueueOptions) {
    this.#o = o;
    this.#host = host;
    this.feed = new RedisFeed(o.url, o.prefix);
    // No offline queue: while Redis is away a command fails at once instead of holding the dispatch.
    this.#client = new Redis(o.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: reconnectDelay,
    });
    this.#client.on('error', () => {}); // judged by #health
    this.#health = new RedisHealth(this.#client, o.onTrouble ?? (() => {}));
    // Sent once, then called by its SHA (EVALSHA): not the script's text with every completion.
    this.#client.defineCommand('hookwardenComplete', { numberOfKeys: 3, lua: COMPLETE });
    this.#queue = new Queue(QUEUE, { connection: this.#client, prefix: o.prefix });
    this.#queue.on('error', () => {});
    if (o.work) {
      this.#worker = new Worker(QUEUE, (job, token) => this.#process(job, token), {
        connection: { ...connectionOf(o.url), maxRetriesPerRequest: null, retryStrategy: reconnectDelay },
        prefix: o.prefix,
        concurrency: o.concurrency,
        // BullMQ renews a replica's locks every lockDuration / 2 (one script for all its jobs); the
        // check for lapsed locks runs as often, so a dead replica's job waits at most 1.5× the lock.
        lockDuration: o.lockDurationMs,
        stalledInterval: Math.max(50, Math.floor(o.lockDurationMs / 2)),
        maxStalledCount: 2,
        settings: { backoffStrategy: backoffOf },
      });
      this.#worker.on('error', () => {
        this.#unavailable++;
      });
      this.#worker.on('failed', (job, err) => void this.#failed(job, err));
    }
  }

  #counter(tenant: string | undefined): string {
    return `${this.#o.prefix}:async:reserved:${tenant === undefined ? 'none' : `t:${tenant}`}`;
  }

  async submit(job: AsyncJob, hook: HookDefinition, gen: Generation): Promise<HookAnswer> {
    if (this.#closing.signal.aborted) return notRunAnswer(hookError('pool_closed', 'the executor is closed'));
    const max = maxAsyncQueuedFor(gen, job.tenant);
    const counter = this.#counter(job.tenant);
    const spec = hook.async!;
    let reserved = false;
    try {
      const n = await this.#client.incr(counter);
      reserved = true;
      if (n > max) {
        reserved = false;
        await this.#client.decr(counter);
        const message = `limits.maxAsyncQueued (${max}) reached: this tenant has ${n - 1} async hooks queued or running (every replica); the hook was not queued`;
        const details = { ...(job.tenant !== undefined ? { tenant: job.tenant } : {}), limit: max };
        return notRunAnswer(hookError('queue_full', message, details));
      }
      await this.#queue.add('hook', job, {
        jobId: job.asyncId,
        attempts: spec.retries + 1,
        backoff: { type: `hookwarden-${spec.retryBackoff}`, delay: spec.retryBackoffMs },
        removeOnComplete: true,
        removeOnFail: true,
        // Its place in its tenant's backlog: a tenant's nth job waits behind every tenant's (n-1)th. A
        // tenant's only job goes to BullMQ's plain wait list (taken before any prioritised job, and a
        // cheaper add): the same order.
        ...(n > 1 ? { priority: Math.min(n - 1, MAX_PRIORITY) } : {}),
      });
    } catch (err) {
      this.#unavailable++;
      // The place counted for a job Redis did not take is given back (if Redis still answers).
      if (reserved) await this.#client.decr(counter).catch(() => {});
      const message = `the async queue's Redis did not answer (${(err as Error).message}); the hook was not queued`;
      return { kind: 'failure', error: hookError('queue_unavailable', message), latencyMs: 0, queuedMs: 0 };
    }
    return { kind: 'queued', asyncId: job.asyncId, latencyMs: 0, queuedMs: 0 };
  }

  release(): void {}

  async #process(bjob: Job, token: string | undefined): Promise<void> {
    const job = parseJobData(bjob.data);
    if (job === undefined) return; // not a job this version wrote: dropped (removeOnComplete)
    const gen = this.#host.generation();
    const hook = findJobHook(gen, job);
    if (hook === undefined) {
      if (Date.now() - job.enqueuedAt < this.#o.mismatchTimeoutMs) {
        await bjob.moveToDelayed(Date.now() + this.#o.mismatchRetryMs, token);
        throw new DelayedError();
      }
      const message = `no replica with this hook's spec (${job.digest}) ran it within ${this.#o.mismatchTimeoutMs} ms: the replicas' configurations differ`;
      const details = { digest: job.digest, waitedMs: Date.now() - job.enqueuedAt };
      await this.#complete(
        job,
        notRunCompletion(job, 'command', hookError('config_mismatch', message, details)),
      );
      return;
    }
    this.#running++;
    let answer: HookAnswer;
    let startedAt: number;
    try {
      ({ answer, startedAt } = await runAttempt(gen, this.#host.context(), hook, job, this.#closing.signal));
    } finally {
      this.#running--;
    }
    if (this.#closing.signal.aborted && answer.kind === 'failure' && !retryable(answer)) {
      // Stopped by this replica's close: another replica runs it (no attempt used).
      await bjob.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    const attempts = bjob.attemptsMade + 1;
    if (retryable(answer) && attempts < (bjob.opts.attempts ?? 1))
      throw new Error('async hook failed: retried');
    const def = gen.catalogue.get(job.event)!;
    await this.#complete(job, completionOf(def, hook, job, answer, attempts, startedAt), true);
    this.#wakeIfIdle();
  }

  /**
   * A job BullMQ gave up on without our processor completing it: it stalled too often, or its last
   * attempt failed in the queue itself (Redis errors while completing it). It still completes once,
   * so that its tenant's place is given back and its events are written (best effort: Redis may be
   * the reason). A failed attempt that BullMQ will retry is not final: nothing to do.
   */
  async #failed(bjob: Job | undefined, err: Error): Promise<void> {
    const job = bjob === undefined ? undefined : parseJobData(bjob.data);
    if (job === undefined) return;
    const error = queueFailure(bjob!, err);
    if (error === undefined) return;
    await this.#complete(job, notRunCompletion(job, 'command', error)).catch(() => {});
  }

  /**
   * Completes a job once across replicas. `ran`: this replica ran the hook; its audit file records the
   * run first, so a replica that dies before the completion is marked still has it on record (a run
   * made twice, its first replica dying mid-way, is then in both files: each record is true). The
   * library events, and a record of a job that never ran, come only with the one completion.
   */
  async #complete(job: AsyncJob, c: AsyncCompletion, ran = false): Promise<void> {
    const o = this.#o;
    const ctx = this.#host.context();
    if (ran) writeCompletion(ctx, c);
    const client = this.#client as Redis & {
      hookwardenComplete(...args: (string | number)[]): Promise<number>;
    };
    const first = await client.hookwardenComplete(
      `${o.prefix}:async:done:${job.asyncId}`,
      this.#counter(job.tenant),
      streamKey(o.prefix, job.tenant),
      DONE_TTL_MS,
      o.replayEvents,
      JSON.stringify(c.completed),
      c.rewake === undefined ? '' : JSON.stringify(c.rewake),
    );
    if (first === 1) deliverLocally(ctx, c, { audit: !ran });
  }

  #wakeIfIdle(): void {
    if (this.#running === 0) this.#idle.wake();
  }

  ready(): Promise<void> {
    if (this.#client.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_WAIT_MS);
      this.#client.on('ready', done);
    });
  }

  /** Counts an operation that could not reach Redis (the rate limiter's fallbacks). */
  countUnavailable(): void {
    this.#unavailable++;
  }

  /** The command connection (the tenant rate limiter shares it). */
  get client(): Redis {
    return this.#client;
  }

  status(): QueueStatus {
    return {
      mode: 'redis',
      redis: this.#health.up ? 'up' : 'down',
      unavailable: this.#unavailable,
      pending: this.#running,
      running: this.#running,
    };
  }

  drain(timeoutMs: number): Promise<'idle' | 'timeout'> {
    // This replica stops taking jobs; the ones it runs finish (the rest stay queued for others).
    void this.#worker?.pause(true).catch(() => {});
    return this.#idle.wait(this.#running === 0, timeoutMs);
  }

  async close(): Promise<void> {
    if (!this.#closing.signal.aborted) this.#closing.abort(new Error('the executor is closing'));
    this.#health.close();
    this.feed.endAll('the executor closed');
    // BullMQ's close waits for Redis to answer: without Redis it would wait forever. The jobs this
    // replica held are then taken again by others once their locks lapse.
    const up = this.#client.status === 'ready';
    await bounded(this.#worker?.close(!up), CLOSE_WAIT_MS);
    await bounded(this.#queue.close(), CLOSE_WAIT_MS);
    this.#client.disconnect();
    if (this.#worker !== undefined) await bounded(this.#worker.disconnect(), CLOSE_WAIT_MS);
  }
}
