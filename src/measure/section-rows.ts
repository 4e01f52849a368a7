// The rows of the bench's tables, for the text and the HTML report alike (each renders them its own
// way): latency figures, per event, the session cost, the failures per hook, the isolation levels.
// The first row is the header; numbers of milliseconds stay numbers, so that each column gets one
// format (number-format.ts).
import type { EventSummary, HookSummary, IsolationRun, LatencySummary, SessionCost } from './bench-result.js';
import { type Cell, fixed, int, times } from './number-format.js';

export const LATENCY_HEAD = ['count', 'p50', 'p90', 'p99', 'p99.9', 'max', 'mean'];

export const latencyCells = (s: LatencySummary): Cell[] => [
  int(s.count),
  s.p50,
  s.p90,
  s.p99,
  s.p999,
  s.max,
  s.mean,
];

const count = (v: number) => fixed(v, Number.isInteger(v) ? 0 : 2);

/** Per event name: how often a session holds it, the cold call, warm percentiles, the hook set. */
export function eventRows(perEvent: Readonly<Record<string, EventSummary>>, first: string): Cell[][] {
  return [
    [first, 'per session', 'hooks run', 'cold', 'p50', 'p90', 'p99', 'p99.9', 'hook set p50', 'hook set p99'],
    ...Object.entries(perEvent).map(([name, e]): Cell[] => [
      name === e.canonical ? name : `${name} (${e.canonical})`,
      count(e.perSession),
      fixed(e.hooksPerDispatch, 2),
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

/** One row per tool-call count, in seconds, stage by stage. */
export function sessionRows(s: SessionCost, first: string): Cell[][] {
  return [
    [first, 'tool calls', 'total', 'queue', 'spawn / isolate', 'hook run', 'fold'],
    ...s.rows.map((r): Cell[] => [
      r.label === 'recorded' ? 'recorded mix' : r.label,
      int(r.toolCalls),
      r.totalMs / 1000,
      r.stages.queueMs / 1000,
      r.stages.transportMs / 1000,
      r.stages.runMs / 1000,
      r.stages.foldMs / 1000,
    ]),
  ];
}

/** The hooks that failed, with their failures and how they resolved (undefined when none failed). */
export function failureRows(
  perHook: Readonly<Record<string, HookSummary>>,
): { rows: Cell[][]; security: boolean[] } | undefined {
  const failing = Object.entries(perHook).filter(
    ([, h]) => h.failures !== undefined && h.failures.timeouts + h.failures.otherFailures > 0,
  );
  if (failing.length === 0) return undefined;
  return {
    rows: [
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
    ],
    security: failing.map(([, h]) => h.failures!.securityFailures > 0),
  };
}

/** One row per isolation level: dispatch latency, its ratio to the first level, the session cost. */
export function isolationRows(levels: readonly IsolationRun[], first: string): Cell[][] {
  const withSession = levels.some((l) => l.session !== undefined);
  const head: Cell[] = [first, 'p50', 'p90', 'p99', 'mean', '× first'];
  if (withSession) head.push('session, recorded (s)');
  return [
    head,
    ...levels.map((l): Cell[] => {
      if (!l.available || l.overall === undefined)
        return [
          `${l.level}: unavailable (${l.detail}${l.fix ? `; ${l.fix}` : ''})`,
          '',
          '',
          '',
          '',
          '',
          ...(withSession ? [''] : []),
        ];
      const o = l.overall;
      const row: Cell[] = [l.level, o.p50, o.p90, o.p99, o.mean, times(l.vsFirst)];
      if (withSession) row.push(l.session === undefined ? null : fixed(l.session.rows[0]!.totalMs / 1000, 3));
      return row;
    }),
  ];
}
