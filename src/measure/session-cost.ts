// What a hook set adds to an agent's session, from a replay: every event name's mean warm dispatch
// latency (means, so that counts × means add up to the expected total) times how often a session
// holds it. Events that come once per session (SessionStart, SessionEnd) are a fixed part; every
// other event comes with the work, and is scaled by tool calls (PreToolUse / BeforeTool events):
// a session of T tool calls costs fixed + T × (the rest per recorded tool call).
import type { EventSummary, SessionCost, SessionCostRow, StageTotals } from './bench-result.js';
import { roundMs } from './latency-summary.js';

/** Canonical events that happen once per session, whatever its length. */
const ONCE_PER_SESSION: ReadonlySet<string> = new Set(['SessionStart', 'SessionEnd']);
/** The canonical event of a tool call (Claude Code's PreToolUse). */
const TOOL_CALL = 'BeforeTool';

/** Where the defaults come from, in the words the text and the report print (the docs cite the source). */
export const TOOL_CALLS_SOURCE =
  'hookwarden\'s default: the median and 90th percentile of tool calls per session over 102 Claude Code sessions of one project; docs/bench.md, "The session cost", has other published figures';

const zero = (): StageTotals => ({ queueMs: 0, transportMs: 0, runMs: 0, foldMs: 0 });

function add(into: StageTotals, e: EventSummary, times: number): void {
  into.queueMs += e.stages.queueMs * times;
  into.transportMs += e.stages.transportMs * times;
  into.runMs += e.stages.runMs * times;
  into.foldMs += e.stages.foldMs * times;
}

const total = (s: StageTotals) => s.queueMs + s.transportMs + s.runMs + s.foldMs;
const scaled = (s: StageTotals, k: number): StageTotals => ({
  queueMs: s.queueMs * k,
  transportMs: s.transportMs * k,
  runMs: s.runMs * k,
  foldMs: s.foldMs * k,
});
const plus = (a: StageTotals, b: StageTotals): StageTotals => ({
  queueMs: a.queueMs + b.queueMs,
  transportMs: a.transportMs + b.transportMs,
  runMs: a.runMs + b.runMs,
  foldMs: a.foldMs + b.foldMs,
});
const rounded = (s: StageTotals): StageTotals => ({
  queueMs: roundMs(s.queueMs),
  transportMs: roundMs(s.transportMs),
  runMs: roundMs(s.runMs),
  foldMs: roundMs(s.foldMs),
});

function row(label: string, toolCalls: number, stages: StageTotals): SessionCostRow {
  return { label, toolCalls, totalMs: roundMs(total(stages)), stages: rounded(stages) };
}

/**
 * The session cost of a replay. `perEvent`: the figures per event name, each with how often a
 * recorded session holds it; `toolCalls`: the counts to state the cost at, by label.
 */
export function sessionCost(
  perEvent: Readonly<Record<string, EventSummary>>,
  sessions: number,
  toolCalls: Readonly<Record<string, number>>,
  source: string,
): SessionCost {
  const fixed = zero();
  const work = zero();
  let calls = 0;
  let coldExtra = 0;
  for (const e of Object.values(perEvent)) {
    add(ONCE_PER_SESSION.has(e.canonical) ? fixed : work, e, e.perSession);
    if (e.canonical === TOOL_CALL) calls += e.perSession;
    coldExtra += Math.max(0, e.cold.dispatchMs - e.dispatch.mean);
  }
  const rows = [row('recorded', Math.round(calls * 100) / 100, plus(fixed, work))];
  const perCall = calls > 0 ? scaled(work, 1 / calls) : zero();
  if (calls > 0)
    for (const [label, n] of Object.entries(toolCalls))
      rows.push(row(label, n, plus(fixed, scaled(perCall, n))));
  return {
    sessions,
    toolCallsPerSession: Math.round(calls * 100) / 100,
    perSessionMs: roundMs(total(fixed)),
    perToolCallMs: roundMs(total(perCall)),
    coldExtraMs: roundMs(coldExtra),
    distribution: { toolCalls: { ...toolCalls }, source },
    rows,
    ...(calls > 0
      ? {}
      : {
          note: 'the recording has no tool calls (PreToolUse / BeforeTool): the cost is given at the recorded mix only',
        }),
  };
}
