// Collects a bench run's samples into histograms (overall, per hook, per tenant, per baseline) and
// counts (verdicts, error codes), then turns them into the figures and ratios of a BenchResult.
import type { DispatchResult } from '../contract/result.js';
import type { HookTiming } from '../dispatch/hook-timing.js';
import { BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { BenchResult, HookRatios, HookSummary, LatencySummary, TenantSummary } from './bench-result.js';
import { BlockRecorder } from './block-recorder.js';
import { EventRecorder } from './event-recorder.js';
import { Histogram } from './histogram.js';
import { HookSeries } from './hook-recorder.js';
import { roundMs as ms, summarizeLatency } from './latency-summary.js';
import { StageRecorder } from './stage-recorder.js';

/** Ratios to 3 decimals. */
const ratio = (value: number, base: number) => (base > 0 ? Math.round((value / base) * 1000) / 1000 : null);

/** One measured dispatch, kept aside until the block ends. */
interface Pending {
  result: DispatchResult;
  elapsedMs: number;
  tenant: string | undefined;
  timings: readonly HookTiming[];
  /** The event name as dispatched (a replay's line names it). */
  event: string;
}

/** Dispatches kept aside before they are added inline (bounds the memory of a huge block). */
const MAX_PENDING = 50_000;

export class BenchRecorder {
  readonly overall = new Histogram();
  readonly #hooks = new Map<string, HookSeries>();
  readonly #tenants = new Map<string, Histogram>();
  readonly #baselines = new Map<BaselineName, Histogram>(BASELINE_NAMES.map((n) => [n, new Histogram()]));
  readonly #decisions: Record<string, number> = Object.create(null);
  readonly #errors: Record<string, number> = Object.create(null);
  /** Per-block medians (the caller starts and ends each block). */
  readonly blocks = new BlockRecorder();
  readonly #stages = new StageRecorder();
  /** Per event name: cold and warm figures. */
  readonly events = new EventRecorder();
  readonly #pending: Pending[] = [];
  /** Canonical event → whether it can deny (from the configuration; unknown events are judged strictly). */
  readonly #canDeny: ReadonlyMap<string, boolean>;

  /**
   * `tenants`: the tenant ids the run uses, so that they are reported in this order. `canDeny`: per
   * canonical event, whether a deny is honoured there (a hook failing open there is a security failure).
   */
  constructor(tenants: readonly string[] = [], canDeny: ReadonlyMap<string, boolean> = new Map()) {
    for (const t of tenants) this.#tenants.set(t, new Histogram());
    this.#canDeny = canDeny;
  }

  /**
   * One measured dispatch: its wall time around `dispatch()`, and its per-hook records. Kept aside
   * and added to the histograms by `flush()` (the run calls it after each dispatch block, outside the
   * timed part): recording into HDR histograms costs about a microsecond a value, which would
   * otherwise be counted in the throughput and delay the dispatches in flight.
   */
  recordDispatch(
    result: DispatchResult,
    elapsedMs: number,
    tenant: string | undefined,
    timings: readonly HookTiming[] = [],
    event: string = result.event,
  ): void {
    this.#pending.push({ result, elapsedMs, tenant, timings, event });
    if (this.#pending.length >= MAX_PENDING) this.flush();
  }

  /** Adds the dispatches kept aside to the figures. */
  flush(): void {
    for (const p of this.#pending) this.#add(p);
    this.#pending.length = 0;
  }

  #add({ result, elapsedMs, tenant, timings, event }: Pending): void {
    this.overall.record(elapsedMs);
    this.blocks.dispatch(elapsedMs, tenant, event);
    this.#stages.record(elapsedMs, timings);
    const ran = result.hooks.filter((h) => h.outcome !== 'not-run').length;
    this.events.record(event, result.event, elapsedMs, timings, ran);
    if (tenant !== undefined) {
      const h = this.#tenants.get(tenant) ?? new Histogram();
      this.#tenants.set(tenant, h);
      h.record(elapsedMs);
    }
    this.#decisions[result.decision] = (this.#decisions[result.decision] ?? 0) + 1;
    const canDeny = this.#canDeny.get(result.event);
    for (const hook of result.hooks) {
      let s = this.#hooks.get(hook.id);
      if (s === undefined) {
        s = new HookSeries(hook.type);
        this.#hooks.set(hook.id, s);
      }
      if (hook.error !== undefined) this.#errors[hook.error.code] = (this.#errors[hook.error.code] ?? 0) + 1;
      if (hook.outcome !== 'not-run') this.blocks.hook(hook.id, hook.latencyMs);
      s.record(hook, result, canDeny);
    }
  }

  recordBaseline(name: BaselineName, elapsedMs: number): void {
    this.#baselines.get(name)!.record(elapsedMs);
    this.blocks.baseline(name, elapsedMs);
  }

  /** The figures of a BenchResult (the caller adds what describes the run). */
  summarize(
    durationMs: number,
  ): Pick<
    BenchResult,
    | 'overall'
    | 'perHook'
    | 'perTenant'
    | 'baselines'
    | 'ratios'
    | 'decisions'
    | 'errors'
    | 'histogram'
    | 'blocks'
    | 'stages'
  > & { throughputPerSec: number } {
    this.flush();
    const baselines = Object.fromEntries(
      BASELINE_NAMES.map((n) => [n, summarizeLatency(this.#baselines.get(n)!)]),
    ) as Record<BaselineName, LatencySummary>;
    const echo = baselines.piscinaEcho.p50;
    const spawn = baselines.spawnTrue.p50;
    const evalP50 = baselines.quickJsEval.p50;
    const overall = summarizeLatency(this.overall);

    // Hook ids come from config files: keep them out of any prototype.
    const perHook: Record<string, HookSummary> = Object.create(null);
    const hookRatios: Record<string, HookRatios> = Object.create(null);
    for (const [id, s] of this.#hooks) {
      const summary = s.summarize();
      perHook[id] = summary;
      if (s.type === 'command') hookRatios[id] = { vsSpawnTrue: ratio(summary.p50, spawn) };
      else if (s.type === 'js')
        hookRatios[id] = {
          vsQuickJsEval: ratio(summary.p50, evalP50),
          vsEchoPlusEval: ratio(summary.p50, echo + evalP50),
        };
    }

    const seconds = durationMs / 1000;
    let perTenant: Record<string, TenantSummary> | undefined;
    if (this.#tenants.size > 0) {
      perTenant = Object.create(null) as Record<string, TenantSummary>;
      for (const [id, h] of this.#tenants)
        perTenant[id] = {
          ...summarizeLatency(h),
          throughputPerSec: seconds > 0 ? Math.round(h.count / seconds) : 0,
        };
    }

    return {
      throughputPerSec: seconds > 0 ? Math.round((this.overall.count / seconds) * 10) / 10 : 0,
      overall,
      perHook,
      ...(perTenant === undefined ? {} : { perTenant }),
      baselines,
      ratios: {
        overall: {
          vsPiscinaEcho: ratio(overall.p50, echo),
          vsSpawnTrue: ratio(overall.p50, spawn),
          vsQuickJsEval: ratio(overall.p50, evalP50),
          vsEchoPlusEval: ratio(overall.p50, echo + evalP50),
        },
        perHook: hookRatios,
      },
      decisions: { ...this.#decisions },
      errors: { ...this.#errors },
      histogram: this.overall
        .buckets(2)
        .map((b) => ({ fromMs: ms(b.fromMs), toMs: ms(b.toMs), count: b.count })),
      blocks: this.blocks.blocks,
      stages: this.#stages.summarize(),
    };
  }
}
