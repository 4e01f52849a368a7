// `hookwarden/bench`: the benchmark engine behind `hookwarden bench` — run, then render.

/** The baselines measured in the same run. */
export type { BaselineName } from './baselines.js';
/** runBench's options and their defaults. */
export { BENCH_DEFAULTS, type BenchOptions } from './bench-options.js';
/** A run's result (the `--json` output). */
export type {
  BenchResult,
  HookRatios,
  HookSummary,
  LatencySummary,
  OverallRatios,
  TenantSummary,
} from './bench-result.js';
/** The latency histogram. */
export { Histogram, type HistogramBucket, type HistogramOptions } from './histogram.js';
/** The machine a run was measured on. */
export type { MachineInfo } from './machine.js';
/** A self-contained HTML report of a result. */
export { renderHtmlReport } from './report-html.js';
/** Runs a benchmark. */
export { runBench } from './run-bench.js';
