// The figure shapes that a BenchResult and the parts a replay adds (replay-result.ts) share: a
// latency summary, a configured hook, where a dispatch's time goes.
import { ISOLATION_LEVELS } from '../config/defaults.js';
import type { OnError } from '../contract/decisions.js';
import type { CONFIGURED_HOOK_TYPES } from '../contract/types.js';

/**
 * How a configured hook runs: a command hook's isolation level; `quickjs` (JS hooks), `wasm` (wasm
 * hooks: a WebAssembly instance), `remote` (http
 * hooks: the server runs it) or `platform` (prompt and agent hooks: the platform's evaluator).
 */
export const HOOK_ISOLATIONS = [...ISOLATION_LEVELS, 'quickjs', 'wasm', 'remote', 'platform'] as const;

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

/** One hook the config registers for the benchmarked event. */
export interface ConfiguredHook {
  id: string;
  type: (typeof CONFIGURED_HOOK_TYPES)[number];
  scope: string;
  /**
   * Command hooks: `process`, `contained` (process mode that requires containment) or `namespace`;
   * JS hooks: `quickjs`; wasm hooks: `wasm`; http hooks: `remote` (the server runs it); prompt and agent hooks:
   * `platform` (the embedding platform's evaluator).
   */
  isolation: (typeof HOOK_ISOLATIONS)[number];
  /**
   * `sha256:` of what the hook does (command, env, limits, isolation, and the content of the scripts
   * it runs from under the config's or the sandbox root; or the JS source; or the wasm module's
   * digest and limits), path-independent.
   */
  digest: string;
  /** The canonical event it is registered for, its `onError`, and whether that event can deny. */
  event?: string;
  onError?: OnError;
  canDeny?: boolean;
}

/** Mean time per stage, ms (means, so the stages add up to the mean total). */
export interface StageSplit {
  /** Waiting for a turn: fair scheduler and lane slots. */
  queueMs: number;
  /** JS: the hop to the worker thread and back; command: scratch dir, fork/exec, clean-up. */
  transportMs: number;
  /** The hook's own run: the isolate call, or the process from exec to exit. */
  runMs: number;
}

export interface DispatchStageSplit extends StageSplit {
  /** Everything else in a dispatch: resolve, match, validate, fold, build the result (and overlap). */
  foldMs: number;
  /** Mean dispatch latency the split divides. */
  totalMs: number;
}
