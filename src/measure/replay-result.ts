// The parts of a BenchResult that a replay (`bench --replay`) and `--isolation` add: figures per
// event name, the recording, what the hooks add to a session, and one summary per isolation level.

import type { HistogramBucket } from './histogram.js';
import type { ConfiguredHook, DispatchStageSplit, LatencySummary } from './result-figures.js';

/** One event name's figures: its first call, and the warm calls after it. */
export interface EventSummary {
  /** The canonical event the name resolved to (`PreToolUse` → `BeforeTool`). */
  canonical: string;
  /** How many times a recorded session holds it, on average (1 for a one-event run). */
  perSession: number;
  /** The first call of the run: the hooks' workers and processes starting cold. */
  cold: { dispatchMs: number; hookSetMs: number };
  /** Warm dispatches: latency around `dispatch()`. */
  dispatch: LatencySummary;
  /**
   * Warm dispatches: wall time of the whole hook set, from the first hook's start to the last one's
   * end (a parallel event's hooks overlap: this is not their sum). 0 when no hook ran.
   */
  hookSet: LatencySummary;
  /** Hooks run per dispatch, on average. */
  hooksPerDispatch: number;
  /** Where the time of its dispatches goes (means). */
  stages: DispatchStageSplit;
  /** Its dispatch latency histogram (2 significant digits), for the percentile plot. */
  histogram: HistogramBucket[];
}

/** A replayed recording (`bench --replay`). */
export interface ReplayInfo {
  /** The file or directory as given, and the files read. */
  source: string;
  files: string[];
  sessions: number;
  /** Events per pass (every recorded event, once). */
  events: number;
  /** Measured passes through the recording. */
  passes: number;
}

/** The stages of a session's cost, ms (means × counts). */
export interface StageTotals {
  queueMs: number;
  /** Spawn (command hooks) or the hop to the isolate (JS hooks). */
  transportMs: number;
  runMs: number;
  foldMs: number;
}

export interface SessionCostRow {
  /** `recorded`, or the label of a given count (`p50`). */
  label: string;
  toolCalls: number;
  /** What the hook set adds to such a session, ms. */
  totalMs: number;
  stages: StageTotals;
}

/** What the hook set adds to a session: at the recorded mix, and at given tool-call counts. */
export interface SessionCost {
  /** Recorded sessions, and tool calls (PreToolUse / BeforeTool events) per recorded session. */
  sessions: number;
  toolCallsPerSession: number;
  /** Once per session (SessionStart, SessionEnd), ms. */
  perSessionMs: number;
  /** Every other event, per tool call at the recorded mix, ms. */
  perToolCallMs: number;
  /** Extra of the first calls (cold − warm), once per executor start, ms. */
  coldExtraMs: number;
  /** The counts the rows are given at, and where they come from. */
  distribution: { toolCalls: Record<string, number>; source: string };
  rows: SessionCostRow[];
  /** Why some rows are missing (a recording without tool calls). */
  note?: string;
}

/** One isolation level of `--isolation`: the same hooks, interleaved with the others. */
export interface IsolationRun {
  level: string;
  /** Whether the host supports it; an unavailable level is listed, not run. */
  available: boolean;
  /** What it is, or why it is unavailable. */
  detail: string;
  fix?: string;
  /** Each hook's isolation at this level (a hook that asks for more keeps it). */
  hooks?: { id: string; isolation: ConfiguredHook['isolation'] }[];
  overall?: LatencySummary;
  perHook?: Record<string, LatencySummary>;
  stages?: DispatchStageSplit;
  /** Overall p50 ÷ the first level's. */
  vsFirst?: number | null;
  session?: SessionCost;
}
