// What `runBench` answers and `hookwarden bench --json` prints: one JSON-ready object. All times
// are milliseconds; ratios are p50 over p50 (dimensionless, >1 means slower than the baseline).
import type { HookType, Verdict } from '../contract/types.js';
import type { BaselineName } from './baselines.js';
import type { HistogramBucket } from './histogram.js';
import type { MachineInfo } from './machine.js';
import type { EventSummary, IsolationRun, ReplayInfo, SessionCost } from './replay-result.js';
import type { ConfiguredHook, DispatchStageSplit, LatencySummary, StageSplit } from './result-figures.js';
import type { RunConditions } from './run-conditions.js';

export type {
  EventSummary,
  IsolationRun,
  ReplayInfo,
  SessionCost,
  SessionCostRow,
  StageTotals,
} from './replay-result.js';
export type { ConfiguredHook, DispatchStageSplit, LatencySummary, StageSplit } from './result-figures.js';

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
  /** This hook's failures by error code (`timeout`, `nonzero_exit`…); `{}` when none. */
  errors: Record<string, number>;
  /** Its failures counted by how each resolved (absent in results of older versions). */
  failures?: HookFailures;
}

/** How a hook's failures resolved: the call went on without the hook (fail open), or was denied. */
export interface HookFailures {
  /** Calls where the hook timed out. */
  timeouts: number;
  /** Calls where it failed otherwise (non-zero exit, invalid output, a limit…). */
  otherFailures: number;
  /** Failures after which the call went on without this hook's verdict (`onError: "skip"`). */
  failedOpen: number;
  /** Failures that denied the call (`onError: "deny"`, a tampered policy pack). */
  denied: number;
  /**
   * Of `failedOpen`, those on an event that can deny (or whose event is unknown, with `--url`): a
   * guard that did not guard, so the call ran unchecked. A security failure.
   */
  securityFailures: number;
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

/** The version of the result's JSON shape; `bench compare` and `bench report` read this one. */
export const BENCH_SCHEMA = 2;

/** Which hookwarden ran the benchmark. */
export interface BuildInfo {
  version: string;
  /** `git rev-parse HEAD` of the checkout hookwarden ran from; null when not a git checkout (or no git). */
  commit: string | null;
  /** Whether that checkout had uncommitted changes; null when unknown. */
  dirty: boolean | null;
}

/** The input dispatched (before dispatch fills in defaults). */
export interface InputInfo {
  /** `sha256:` of the input as given, as canonical JSON (a replay: of every recorded line). */
  digest: string;
  /** The input itself; absent with `--redact-input`. */
  value?: Record<string, unknown>;
  /** `--vary-input`: each dispatch got its own `timestamp` (the base plus its iteration, in ms). */
  varied: boolean;
}

/** Medians of one block of the run (a baseline block, then a dispatch block). */
export interface BlockSummary {
  /** Milliseconds from the first measured block's start to this dispatch block's start. */
  atMs: number;
  /** Wall time of the dispatch block. */
  durationMs: number;
  dispatches: number;
  overall: { p50: number; p90: number; p99: number };
  perHook: Record<string, number>;
  perTenant?: Record<string, number>;
  /** Per event name (as dispatched); absent in results of older versions. */
  perEvent?: Record<string, number>;
  baselines: Record<BaselineName, number>;
  /**
   * Share of the block (its baselines included) the bench's main thread spent ready to run but
   * waiting for a CPU; absent where the OS does not say, and in results of older versions.
   */
  cpuWait?: number;
}

export interface BenchResult {
  /** Version of this shape: 2. */
  schema: typeof BENCH_SCHEMA;
  hookwarden: BuildInfo;
  /** The server the dispatches went to (`bench --url`); absent for an executor in the bench's process. */
  url?: string;
  /** The config sources: file paths as given, `<inline>` for objects. */
  config: string[];
  /** Policy sources, same form (empty when none). */
  policy: string[];
  /** The event as given (alias or name); `replay` for a replayed recording. */
  event: string;
  /** Measured dispatches (warm-up excluded). */
  iterations: number;
  /** Dispatches in flight at once. */
  concurrency: number;
  /** The hooks the configuration registers for the event (default tenant), in order. */
  hooks: ConfiguredHook[];
  input: InputInfo;
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
  /** Medians per block, in run order: the variance between blocks, drift, and what `compare` tests. */
  blocks: BlockSummary[];
  /** Where the time goes: per dispatch, and per hook. */
  stages: { overall: DispatchStageSplit; perHook: Record<string, StageSplit> };
  /** Per event name as dispatched: cold and warm figures, hook-set wall time, stages. */
  perEvent?: Record<string, EventSummary>;
  /** `bench --replay`: the recording replayed, and what the hook set costs a session. */
  replay?: ReplayInfo;
  session?: SessionCost;
  /** `bench --isolation`: every level, the first one's figures being the top-level ones. */
  isolation?: IsolationRun[];
  /** Hyperfine-style warnings: variance between blocks, baselines that moved during the run. */
  warnings: string[];
  machine: MachineInfo;
  /**
   * What the machine was doing while the blocks were measured: CPU wait, pressure, steal, load.
   * Absent in results of older versions.
   */
  conditions?: RunConditions;
  /** ISO-8601 time the run started. */
  startedAt: string;
}
