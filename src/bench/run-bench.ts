// runBench: dispatches one event many times through a real executor and reports latency
// percentiles (overall, per hook, per tenant) and throughput, with three baselines measured in the
// same run. The run is cut into blocks; before each dispatch block comes a baseline block (each
// baseline sampled one call at a time, rotating which goes first), so drift and noise on a shared
// machine hit the dispatches and their baselines alike.
import { setMaxListeners } from 'node:events';
import type { HookTiming } from '../dispatch/hook-timing.js';
import { createExecutor, type Executor } from '../executor/executor.js';
import type { ConfigSource, ExecutorOptions } from '../executor/options.js';
import { BASELINE_NAMES, type Baselines, openBaselines } from './baselines.js';
import { type BenchOptions, type ResolvedBenchOptions, resolveBenchOptions } from './bench-options.js';
import { BenchRecorder } from './bench-recorder.js';
import { BENCH_SCHEMA, type BenchResult } from './bench-result.js';
import { describeBuild, describeHooks, describeInput } from './describe-run.js';
import { describeMachine } from './machine.js';
import { checkRemoteOptions, type DispatchTarget, remoteTarget } from './remote-target.js';
import { benchWarnings } from './warnings.js';

/** Unmeasured calls of each baseline before the first sample (pool start, wasm compile). */
const BASELINE_WARMUP = 3;

/** The i-th of `parts` near-equal shares of `total`. */
const share = (total: number, parts: number, i: number) =>
  Math.floor((total * (i + 1)) / parts) - Math.floor((total * i) / parts);

function labels(sources: ConfigSource | readonly ConfigSource[] | undefined): string[] {
  if (sources === undefined) return [];
  const list: readonly ConfigSource[] = Array.isArray(sources) ? sources : [sources as ConfigSource];
  return list.map((s) =>
    typeof s === 'string' ? s : typeof s.path === 'string' && !('hooks' in s) ? s.path : '<inline>',
  );
}

function executorOptions(options: BenchOptions): ExecutorOptions {
  const out: ExecutorOptions = {};
  if (options.config !== undefined) out.config = options.config;
  if (options.policy !== undefined) out.policy = options.policy;
  if (options.root !== undefined) out.root = options.root;
  if (options.limits !== undefined) out.limits = options.limits;
  if (options.onWarning !== undefined) out.onWarning = options.onWarning;
  if (options.scratchRoot !== undefined) out.scratchRoot = options.scratchRoot;
  if (options.allowedHttpHookUrls !== undefined) out.allowedHttpHookUrls = options.allowedHttpHookUrls;
  return out;
}

class BenchRun {
  readonly #o: ResolvedBenchOptions;
  readonly #executor: Pick<Executor, 'dispatch'>;
  readonly #baselines: Baselines;
  readonly #signal: AbortSignal;
  readonly recorder: BenchRecorder;
  #seq = 0;
  #done = 0;
  /** Dispatches started, warm-up included: the offset of `--vary-input`'s timestamps. */
  #sent = 0;
  readonly #baseTime: number;

  constructor(
    o: ResolvedBenchOptions,
    executor: Pick<Executor, 'dispatch'>,
    baselines: Baselines,
    signal: AbortSignal,
  ) {
    this.#o = o;
    this.#executor = executor;
    this.#baselines = baselines;
    this.#signal = signal;
    const tenants = o.tenants === 1 ? [] : Array.from({ length: o.tenants }, (_, i) => `t${i + 1}`);
    this.recorder = new BenchRecorder(tenants);
    const given = typeof o.input.timestamp === 'string' ? Date.parse(o.input.timestamp) : Number.NaN;
    this.#baseTime = Number.isFinite(given) ? given : Date.now();
  }

  /** The input of the next dispatch: the same object every time, or one with its own timestamp. */
  #nextInput(): Readonly<Record<string, unknown>> {
    const n = this.#sent++;
    if (!this.#o.varyInput) return this.#o.input;
    return { ...this.#o.input, timestamp: new Date(this.#baseTime + n).toISOString() };
  }

  /** Measured dispatches start again at t1, whatever the warm-up used. */
  startMeasuring(): void {
    this.#seq = 0;
  }

  #tenant(seq: number): string | undefined {
    return this.#o.tenants === 1 ? undefined : `t${(seq % this.#o.tenants) + 1}`;
  }

  #checkAborted(): void {
    if (this.#signal.aborted) throw this.#signal.reason ?? new Error('bench aborted');
  }

  /** Runs `n` dispatches, `concurrency` at a time; returns the block's wall time in ms. */
  async dispatchBlock(n: number, measured: boolean): Promise<number> {
    const { event } = this.#o;
    const signal = this.#signal;
    let next = 0;
    let failure: { error: unknown } | undefined;
    const lane = async () => {
      while (next < n && failure === undefined && !signal.aborted) {
        next++;
        const tenant = this.#tenant(this.#seq++);
        const input = this.#nextInput();
        const timings: HookTiming[] = [];
        const onHookTiming = measured ? (t: HookTiming) => void timings.push(t) : undefined;
        const started = performance.now();
        try {
          const result = await this.#executor.dispatch(event, input, { tenant, signal, onHookTiming });
          const elapsed = performance.now() - started;
          if (!measured || signal.aborted) continue;
          this.recorder.recordDispatch(result, elapsed, tenant, timings);
          this.#o.onProgress?.(++this.#done, this.#o.iterations);
        } catch (error) {
          // A dispatch that rejects (unknown event, invalid input) stops the run.
          failure ??= { error };
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: Math.min(n, this.#o.concurrency) }, lane));
    const elapsed = performance.now() - started;
    if (failure !== undefined) throw failure.error;
    this.#checkAborted();
    return elapsed;
  }

  /** `samples` rounds of every baseline, one call at a time, rotating the first. */
  async baselineBlock(samples: number, measured: boolean): Promise<void> {
    for (let i = 0; i < samples; i++) {
      for (let k = 0; k < BASELINE_NAMES.length; k++) {
        const name = BASELINE_NAMES[(i + k) % BASELINE_NAMES.length]!;
        const started = performance.now();
        await this.#baselines.run[name]();
        if (measured) this.recorder.recordBaseline(name, performance.now() - started);
      }
      this.#checkAborted();
    }
  }
}

/**
 * Benchmarks one event's dispatch: `iterations` dispatches (after `warmup`), `concurrency` at a
 * time, spread over `tenants` labels; reports p50/p90/p99/p99.9/max overall, per hook and per
 * tenant, throughput, and p50 ratios to a Piscina echo round trip, a raw spawn('/bin/true') and an
 * in-thread fresh QuickJS evaluation measured in the same run. Hook failures are counted by error
 * code; a dispatch that rejects (unknown event, invalid input) rejects the run. Closes everything
 * it started, also on failure.
 */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const o = resolveBenchOptions(options);
  const startedAt = new Date().toISOString();
  // Every dispatch in flight listens on one signal: lift the listener warning on a signal of our own.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  checkRemoteOptions(options);
  let executor: DispatchTarget | Executor | undefined;
  let baselines: Baselines | undefined;
  try {
    if (options.url !== undefined) executor = remoteTarget(options.url, options.token!, o.concurrency);
    else executor = await createExecutor(executorOptions(options));
    // A server's hooks are its own configuration's: only a local run can describe them.
    const hooks = options.url !== undefined ? [] : await describeHooks(options);
    // --tenants T: every tenant t1…tT runs the configured hooks as its own hook set.
    if (o.tenants > 1 && options.config !== undefined && 'setTenant' in executor) {
      for (let i = 1; i <= o.tenants; i++) await executor.setTenant(`t${i}`, { config: options.config });
    }
    baselines = await openBaselines({ ...o.input, event: o.event });
    const run = new BenchRun(o, executor, baselines, stop.signal);
    // One dispatch first: a bad event or input fails here, before any baseline work.
    await run.dispatchBlock(Math.min(1, o.warmup), false);
    await run.dispatchBlock(Math.max(0, o.warmup - 1), false);
    await run.baselineBlock(BASELINE_WARMUP, false);
    run.startMeasuring();
    const blocks = o.blocks;
    let durationMs = 0;
    const runStart = performance.now();
    for (let b = 0; b < blocks; b++) {
      run.recorder.blocks.start();
      await run.baselineBlock(share(o.baselineSamples, blocks, b), true);
      const atMs = performance.now() - runStart;
      const blockMs = await run.dispatchBlock(share(o.iterations, blocks, b), true);
      run.recorder.flush();
      run.recorder.blocks.end(atMs, blockMs);
      durationMs += blockMs;
    }
    const summary = run.recorder.summarize(durationMs);
    return {
      schema: BENCH_SCHEMA,
      hookwarden: describeBuild(),
      ...(options.url !== undefined ? { url: options.url } : {}),
      config: labels(options.config),
      policy: labels(options.policy),
      event: o.event,
      hooks,
      input: describeInput(o.input, o.redactInput, o.varyInput),
      iterations: o.iterations,
      concurrency: o.concurrency,
      tenants: o.tenants,
      warmup: o.warmup,
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...summary,
      warnings: benchWarnings({ ...summary, concurrency: o.concurrency }),
      machine: describeMachine(),
      startedAt,
    };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await executor?.close();
    await baselines?.close();
  }
}
