// The text tables of a replay and of `--isolation`: per event name, the session cost, the
// failures per hook with how they resolved, and one row per isolation level.
import type { EventSummary, HookSummary, IsolationRun, SessionCost } from './bench-result.js';
import { type Cell, fixed, int, percent, times } from './number-format.js';
import { table } from './text-grid.js';

/** Per event name: how often a session holds it, the cold call, warm percentiles, the hook set. */
export function eventRows(perEvent: Readonly<Record<string, EventSummary>>): Cell[][] {
  return [
    ['per event (ms)', 'per session', 'cold', 'p50', 'p90', 'p99', 'p99.9', 'hook set p50', 'hook set p99'],
    ...Object.entries(perEvent).map(([name, e]): Cell[] => [
      name === e.canonical ? name : `${name} (${e.canonical})`,
      fixed(e.perSession, Number.isInteger(e.perSession) ? 0 : 2),
      e.cold.dispatchMs,
      e.dispatch.p50,
      e.dispatch.p90,
      e.dispatch.p99,
      e.dispatch.p999,
      e.hookSet.p50,
      e.hookSet.p99,
    ]),
  ];
}

const seconds = (ms: number) => ms / 1000;

/** The session cost: one row per tool-call count, the stages' shares, and where the counts come from. */
export function sessionLines(s: SessionCost): string[] {
  const rows: Cell[][] = [
    ['session cost (s)', 'tool calls', 'total', 'queue', 'spawn/isolate', 'hook run', 'fold'],
    ...s.rows.map((r): Cell[] => [
      r.label === 'recorded' ? 'recorded mix' : r.label,
      int(r.toolCalls),
      seconds(r.totalMs),
      seconds(r.stages.queueMs),
      seconds(r.stages.transportMs),
      seconds(r.stages.runMs),
      seconds(r.stages.foldMs),
    ]),
  ];
  const rec = s.rows[0]!;
  const share = (v: number) => percent(v, rec.totalMs);
  const counts = Object.entries(s.distribution.toolCalls)
    .map(([k, v]) => `${k} ${int(v)}`)
    .join(', ');
  return [
    table(rows),
    `shares: queue ${share(rec.stages.queueMs)}, spawn/isolate ${share(rec.stages.transportMs)}, hook run ${share(rec.stages.runMs)}, fold ${share(rec.stages.foldMs)}`,
    `per tool call ${fixed(s.perToolCallMs, 3)} ms, once per session ${fixed(s.perSessionMs, 3)} ms (SessionStart, SessionEnd); the first calls add ${fixed(s.coldExtraMs, 1)} ms once per executor start`,
    `tool calls per session: ${counts || 'none given'} (${s.distribution.source}); recorded: ${fixed(s.toolCallsPerSession, Number.isInteger(s.toolCallsPerSession) ? 0 : 2)} over ${s.sessions} session${s.sessions === 1 ? '' : 's'}`,
    ...(s.note === undefined ? [] : [`note: ${s.note}`]),
  ];
}

/** Per hook with failures: how many, and how each resolved; undefined when no hook failed. */
export function failureRows(perHook: Readonly<Record<string, HookSummary>>): Cell[][] | undefined {
  const failing = Object.entries(perHook).filter(
    ([, h]) => h.failures !== undefined && h.failures.timeouts + h.failures.otherFailures > 0,
  );
  if (failing.length === 0) return undefined;
  return [
    [
      'failures per hook',
      'calls',
      'timeouts',
      'other failures',
      'failed open',
      'denied',
      'security failures',
    ],
    ...failing.map(([id, h]): Cell[] => {
      const f = h.failures!;
      return [
        `hook ${id}`,
        int(h.count + h.notRun),
        int(f.timeouts),
        int(f.otherFailures),
        int(f.failedOpen),
        int(f.denied),
        f.securityFailures > 0 ? `${int(f.securityFailures)} (FAIL OPEN)` : '0',
      ];
    }),
  ];
}

/** One row per isolation level: dispatch latency, its ratio to the first level, the session cost. */
export function isolationRows(levels: readonly IsolationRun[]): Cell[][] {
  const withSession = levels.some((l) => l.session !== undefined);
  const head: Cell[] = ['isolation (ms)', 'p50', 'p90', 'p99', 'mean', '× first'];
  if (withSession) head.push('session, recorded (s)');
  return [
    head,
    ...levels.map((l): Cell[] => {
      if (!l.available || l.overall === undefined)
        return [`${l.level}: unavailable (${l.detail})`, '', '', '', '', '', ...(withSession ? [''] : [])];
      const o = l.overall;
      const row: Cell[] = [l.level, o.p50, o.p90, o.p99, o.mean, times(l.vsFirst)];
      if (withSession) row.push(l.session === undefined ? null : fixed(l.session.rows[0]!.totalMs / 1000, 3));
      return row;
    }),
  ];
}
