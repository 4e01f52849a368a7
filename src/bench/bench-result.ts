// What `runBench` answers and `hookwarden bench --json` prints: one JSON-ready object. All times
// are milliseconds; ratios are p50 over p50 (dimensionless, >1 means slower than the baseline).
import type { HookType, Verdict } from '../contract/types.js';
import type { BaselineName } from './baselines.js';
import type { HistogramBucket } from './histogram.js';
import type { MachineInfo } from './machine.js';

/** Latency percentiles of one series, in ms (HDR histogram, 3 significant digits). */
export interface LatencySummary {
  /** Samples in the series. */
  count: number;
  p50: number;
  p90: number;
  p99: number;
  /** 99.9th percentile. */
  p999: number;
  /** Exact largest sample. */
  max: number;
  /** Exact mean. */
  mean: number;
}

/**
 * One hook's figures. `p50`…`mean` are its `latencyMs` from the DispatchResult records: for a
 * command hook spawn to exit; for a JS hook the isolate call inside the worker (the round trip to
 * the worker is not in it). Hooks recorded `not-run` are counted in `notRun` only.
 */
export interface HookSummary extends LatencySummary {
  type: HookType;
  /** Time waiting for a pool slot (`queuedMs`), median and 99th percentile. */
  queuedP50: number;
  queuedP99: number;
  /** Records with outcome `not-run` (after a deny, or past `maxHookCalls`). */
  notRun: number;
}

/** One tenant's dispatch latency, and its own dispatch rate over the whole run. */
export interface TenantSummary extends LatencySummary {
  throughputPerSec: number;
}

/** p50 ratios to the baselines' p50s (`null` when a baseline's p50 was 0). */
export interface OverallRatios {
  vsPiscinaEcho: number | null;
  vsSpawnTrue: number | null;
  vsQuickJsEval: number | null;
  /** The floor of a JS hook end to end: a pool round trip plus a fresh isolate. */
  vsEchoPlusEval: number | null;
}

/**
 * A hook's p50 against the baselines of its type: command → `vsSpawnTrue`; JS → `vsQuickJsEval`
 * (like for like: both are the isolate work only) and `vsEchoPlusEval`. Trusted hooks: none.
 */
export interface HookRatios {
  vsSpawnTrue?: number | null;
  vsQuickJsEval?: number | null;
  vsEchoPlusEval?: number | null;
}

export interface BenchResult {
  /** The server the dispatches went to (`bench --url`); absent for an executor in the bench's process. */
  url?: string;
  /** The config sources: file paths as given, `<inline>` for objects. */
  config: string[];
  /** Policy sources, same form (empty when none). */
  policy: string[];
  /** The event as given (alias or name). */
  event: string;
  /** Measured dispatches (warm-up excluded). */
  iterations: number;
  /** Dispatches in flight at once. */
  concurrency: number;
  /** Tenant labels the dispatches were spread over (round-robin t1…tN; 1 = no tenant label). */
  tenants: number;
  /** Unmeasured dispatches run first. */
  warmup: number;
  /** Wall time of the dispatch blocks (baseline blocks between them excluded), ms. */
  durationMs: number;
  /** iterations / durationMs, per second. */
  throughputPerSec: number;
  /** Latency of whole dispatches, measured around `dispatch()`. */
  overall: LatencySummary;
  /** Per hook id, in first-seen order. */
  perHook: Record<string, HookSummary>;
  /** Per tenant id; only when `tenants` > 1. */
  perTenant?: Record<string, TenantSummary>;
  /** Baselines measured in the same run, one call at a time, in blocks between dispatch blocks. */
  baselines: Record<BaselineName, LatencySummary>;
  ratios: { overall: OverallRatios; perHook: Record<string, HookRatios> };
  /** Dispatch verdicts, counted. */
  decisions: Partial<Record<Verdict, number>>;
  /** Hook failures by error code (`timeout`, `nonzero_exit`…), counted; failures never stop a run. */
  errors: Record<string, number>;
  /** Overall latency histogram for plotting: non-empty buckets at 2 significant digits. */
  histogram: HistogramBucket[];
  machine: MachineInfo;
  /** ISO-8601 time the run started. */
  startedAt: string;
}
