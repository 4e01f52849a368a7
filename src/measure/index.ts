// `hookwarden/bench`: the benchmark engine behind `hookwarden bench` — run, compare, then render.

/** The isolation levels command hooks can run at, and whether this host supports each. */
export { type IsolationLevelInfo, isolationLevels } from '../executor/isolation-levels.js';
/** The baselines measured in the same run. */
export type { BaselineName } from './baselines.js';
/** runBench's options and their defaults. */
export { BENCH_DEFAULTS, type BenchOptions } from './bench-options.js';
/** A run's result (the `--json` output). */
export type {
  BenchResult,
  BlockSummary,
  BuildInfo,
  ConfiguredHook,
  DispatchStageSplit,
  EventSummary,
  HookFailures,
  HookRatios,
  HookSummary,
  InputInfo,
  IsolationRun,
  LatencySummary,
  OverallRatios,
  ReplayInfo,
  SessionCost,
  SessionCostRow,
  StageSplit,
  StageTotals,
  TenantSummary,
} from './bench-result.js';
/** Two results compared series by series (Mann-Whitney U, or Wilcoxon signed-rank for paired blocks). */
export {
  type CompareOptions,
  type CompareOutcome,
  type CompareResult,
  compareResults,
  type SeriesChange,
} from './compare.js';
/** The latency histogram. */
export { Histogram, type HistogramBucket, type HistogramOptions } from './histogram.js';
/** Reads a `--json` result file back (schema-checked; older schemas refused with a message). */
export { readBenchResult } from './load-result.js';
/** The machine a run was measured on, and what it was doing meanwhile; how a comparison reads that. */
export type { MachineInfo } from './machine.js';
export type { RunNoise } from './noise-floor.js';
/** A recorded session (`bench --replay`), read and checked line by line. */
export { type RecordedEvent, type RecordedSession, type Recording, readRecording } from './replay-file.js';
/** A self-contained HTML report of a result (or of a comparison). */
export { renderHtmlReport } from './report-html.js';
/** Runs a benchmark. */
export { runBench } from './run-bench.js';
export type { RunConditions } from './run-conditions.js';
