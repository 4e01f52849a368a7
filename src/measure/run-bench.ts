// runBench: dispatches one event many times (or replays a recorded session, event after event)
// through a real executor and reports latency percentiles (overall, per hook, per tenant, per
// event) and throughput, with three baselines measured in the same run. The run is cut into
// blocks; before each dispatch block comes a baseline block (each baseline sampled one call at a
// time, rotating which goes first), so drift and noise on a shared machine hit the dispatches and
// their baselines alike. With `isolation`, one executor per isolation level runs the same work,
// their dispatch blocks interleaved after each baseline block.
import { setMaxListeners } from 'node:events';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { createExecutor } from '../executor/executor.js';
import { type IsolationLevelInfo, isolationLevels } from '../executor/isolation-levels.js';
import type { ExecutorOptions } from '../executor/options.js';
import { BASELINE_NAMES, type Baselines, openBaselines } from './baselines.js';
import { type BenchOptions, type ResolvedBenchOptions, resolveBenchOptions } from './bench-options.js';
import { BenchRecorder } from './bench-recorder.js';
import type { BenchResult } from './bench-result.js';
import { BenchRun, type WorkItem } from './bench-run.js';
import { describeHooks } from './describe-run.js';
import { checkRemoteOptions, type DispatchTarget, remoteTarget } from './remote-target.js';
import { type Recording, readRecording } from './replay-file.js';
import { assembleResult, type FinishedRun } from './result-assembly.js';
import { ConditionsRecorder, type RunConditions } from './run-conditions.js';

/** Unmeasured calls of each baseline before the first sample (pool start, wasm compile). */
const BASELINE_WARMUP = 3;

/** The i-th of `parts` near-equal shares of `total`. */
const share = (total: number, parts: number, i: number) =>
  Math.floor((total * (i + 1)) / parts) - Math.floor((total * i) / parts);

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

/** The levels `isolation` names, each probed; a named level this host lacks is an error. */
function chooseLevels(o: ResolvedBenchOptions, options: BenchOptions): IsolationLevelInfo[] | undefined {
  if (o.isolation === undefined) return undefined;
  const problem = (m: string) => new HookwardenError('invalid_options', `isolation: ${m}`);
  if (options.url !== undefined)
    throw problem("a server's configuration decides its isolation (not with url)");
  if (options.limits?.minIsolation !== undefined)
    throw problem('give either isolation or limits.minIsolation: each level sets its own floor');
  const all = isolationLevels();
  if (o.isolation === 'all') return all;
  return o.isolation.map((name) => {
    const level = all.find((l) => l.level === name);
    if (level === undefined)
      throw problem(
        `unknown level ${JSON.stringify(name)}; the levels are ${all.map((l) => l.level).join(', ')}, or "all"`,
      );
    if (!level.available)
      throw problem(`${name} is not available here: ${level.detail}${level.fix ? `; ${level.fix}` : ''}`);
    return level;
  });
}

/** How often a recorded session holds each event name (1 each for a one-event run). */
function perSessionOf(work: readonly WorkItem[], recording: Recording | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of work) counts.set(w.event, (counts.get(w.event) ?? 0) + 1);
  const sessions = recording?.sessions.length ?? 1;
  return new Map([...counts].map(([k, v]) => [k, v / sessions]));
}

/** The work of a run: one event, or every event of a recording in order. */
function workOf(o: ResolvedBenchOptions): { work: WorkItem[]; recording: Recording | undefined } {
  const recording = o.replay === undefined ? undefined : readRecording(o.replay);
  const work: WorkItem[] =
    recording === undefined
      ? [{ event: o.event!, input: o.input }]
      : recording.events.map((e) => ({ event: e.event, input: e.input, at: e.at }));
  return { work, recording };
}

interface Setup {
  readonly options: BenchOptions;
  readonly o: ResolvedBenchOptions;
  readonly work: readonly WorkItem[];
  readonly variants: readonly (IsolationLevelInfo | undefined)[];
  readonly signal: AbortSignal;
  readonly onMeasured: () => void;
  /** Filled as each variant's executor (or server) is opened, so that all are closed after. */
  readonly targets: DispatchTarget[];
}

/** One executor (or the server) per variant, each with its recorder. */
async function openRuns(s: Setup): Promise<FinishedRun[]> {
  const { options, o } = s;
  const events = [...new Set(s.work.map((w) => w.event))];
  const tenants = o.tenants === 1 ? [] : Array.from({ length: o.tenants }, (_, i) => `t${i + 1}`);
  const runs: FinishedRun[] = [];
  for (const level of s.variants) {
    const limits = level === undefined ? options.limits : { ...options.limits, ...level.limits };
    const variant = { ...options, ...(limits === undefined ? {} : { limits }) };
    const executor = options.url === undefined ? await createExecutor(executorOptions(variant)) : undefined;
    const target = executor ?? remoteTarget(options.url!, options.token!, o.concurrency);
    s.targets.push(target);
    // A server's hooks are its own configuration's: only a local run can describe them.
    const hooks = executor === undefined ? [] : await describeHooks(variant, events);
    // --tenants T: every tenant t1…tT runs the configured hooks as its own hook set.
    if (executor !== undefined && tenants.length > 0 && options.config !== undefined)
      for (const t of tenants) await executor.setTenant(t, { config: options.config });
    const canDeny = new Map(hooks.map((h) => [h.event ?? '', h.canDeny === true]));
    const recorder = new BenchRecorder(tenants, canDeny);
    const run = new BenchRun({
      label: level?.level ?? '',
      options: o,
      target,
      work: s.work,
      recorder,
      signal: s.signal,
      onMeasured: s.onMeasured,
    });
    runs.push({ run, hooks, level });
  }
  return runs;
}

/**
 * The measured blocks: before each, `pace` (when given) and a baseline block; then each variant's
 * dispatch block, the variants taking turns going first. The conditions are read around each block.
 */
async function measureBlocks(
  s: Setup,
  runs: readonly FinishedRun[],
  baselines: Baselines,
  iterations: number,
): Promise<RunConditions> {
  const { o } = s;
  const blocks = Math.min(o.blocks, iterations);
  const conditions = new ConditionsRecorder();
  for (const { run } of runs) run.startMeasuring();
  const runStart = performance.now();
  for (let b = 0; b < blocks; b++) {
    if (s.options.pace !== undefined) await untilAborted(s.options.pace(), s.signal);
    conditions.start();
    for (const { run } of runs) run.recorder.blocks.start();
    await baselineBlock(baselines, runs, share(o.baselineSamples, blocks, b), true, s.signal);
    const timed: { run: BenchRun; atMs: number; blockMs: number }[] = [];
    // Levels take turns going first, so that none always follows the baselines.
    for (let k = 0; k < runs.length; k++) {
      const { run } = runs[(b + k) % runs.length]!;
      const atMs = performance.now() - runStart;
      const blockMs = await run.dispatchBlock(share(iterations, blocks, b), true);
      run.recorder.flush();
      timed.push({ run, atMs, blockMs });
    }
    const cpuWait = conditions.stop();
    for (const t of timed) t.run.recorder.blocks.end(t.atMs, t.blockMs, cpuWait);
  }
  return conditions.summarize();
}

/**
 * Benchmarks one event's dispatch, or a replayed recording: `iterations` dispatches (after the
 * cold pass and `warmup`), `concurrency` at a time, spread over `tenants` labels; reports
 * p50/p90/p99/p99.9/max overall, per hook, per tenant and per event, throughput, p50 ratios to a
 * Piscina echo round trip, a raw spawn('/bin/true') and an in-thread fresh QuickJS evaluation
 * measured in the same run, and for a replay what the hooks add to a session. Hook failures are
 * counted by error code and by how they resolved; a dispatch that rejects (unknown event, invalid
 * input) rejects the run. Closes everything it started, also on failure.
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
  const levels = chooseLevels(o, options);
  const { work, recording } = workOf(o);
  // A replay measures whole passes, so that the recorded mix is kept.
  const iterations = Math.ceil(o.iterations / work.length) * work.length;
  const variants = (levels ?? [undefined]).filter((l) => l === undefined || l.available);
  let done = 0;
  const total = iterations * variants.length;
  const onMeasured = () => o.onProgress?.(++done, total);
  const s: Setup = { options, o, work, variants, signal: stop.signal, onMeasured, targets: [] };
  let baselines: Baselines | undefined;
  try {
    const runs = await openRuns(s);
    baselines = await openBaselines({ ...work[0]!.input, event: work[0]!.event });
    for (const { run } of runs) {
      // One pass first, one dispatch at a time: cold figures, and a bad event or input fails here.
      await run.coldPass();
      await run.dispatchBlock(Math.max(0, o.warmup - work.length), false);
    }
    await baselineBlock(baselines, runs, BASELINE_WARMUP, false, stop.signal);
    const conditions = await measureBlocks(s, runs, baselines, iterations);
    const perSession = perSessionOf(work, recording);
    return assembleResult({
      options,
      o,
      runs,
      levels,
      recording,
      perSession,
      iterations,
      startedAt,
      conditions,
    });
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    for (const t of s.targets) await t.close();
    await baselines?.close();
  }
}

/** `work`, or the signal's reason as soon as it is aborted (a pace that waits on another process). */
function untilAborted(work: void | Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('bench aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('bench aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** `samples` rounds of every baseline, one call at a time, rotating the first; recorded in every run. */
async function baselineBlock(
  baselines: Baselines,
  runs: readonly FinishedRun[],
  samples: number,
  measured: boolean,
  signal: AbortSignal,
): Promise<void> {
  for (let i = 0; i < samples; i++) {
    for (let k = 0; k < BASELINE_NAMES.length; k++) {
      const name = BASELINE_NAMES[(i + k) % BASELINE_NAMES.length]!;
      const started = performance.now();
      await baselines.run[name]();
      const elapsed = performance.now() - started;
      if (measured) for (const { run } of runs) run.recorder.recordBaseline(name, elapsed);
    }
    if (signal.aborted) throw signal.reason ?? new Error('bench aborted');
  }
}
