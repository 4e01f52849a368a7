// The report's sections for a replay and for `--isolation`: per event name, the session cost (a
// table and a stacked bar per tool-call count), the failures per hook with how each resolved
// (failing open on an event that can deny in red), and one row per isolation level.
import type { EventSummary, HookSummary, IsolationRun, SessionCost } from './bench-result.js';
import { type Cell, fixed, formatColumns, int, percent, times } from './number-format.js';
import { escapeHtml } from './report-axes.js';
import { stackedBarsSvg } from './report-charts.js';

/** A table cell holding a config- or recording-given name: whole, wrapped when long. */
export const nameCell = (text: string) => `<td class="name">${escapeHtml(text)}</td>`;

export function table(head: string, rows: string[], className?: string): string {
  const cls = className === undefined ? '' : ` class="${className}"`;
  return `<table${cls}><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const th = (names: readonly string[]) => names.map((n) => `<th>${escapeHtml(n)}</th>`).join('');

/**
 * A table from cells: the first column a name, the number columns each with one format. `extra`
 * gives a row's cells a class (`security`).
 */
export function cellTable(
  head: readonly string[],
  rows: readonly (readonly Cell[])[],
  classes: readonly (readonly (string | undefined)[])[] = [],
): string {
  const text = formatColumns(rows);
  return table(
    th(head),
    text.map(
      (r, i) =>
        `<tr>${r
          .map((c, j) => {
            const cls = classes[i]?.[j];
            if (j === 0) return nameCell(c);
            return cls === undefined
              ? `<td>${escapeHtml(c)}</td>`
              : `<td class="${cls}">${escapeHtml(c)}</td>`;
          })
          .join('')}</tr>`,
    ),
  );
}

export function eventSection(perEvent: Readonly<Record<string, EventSummary>>): string[] {
  const rows = Object.entries(perEvent).map(([name, e]): Cell[] => [
    name === e.canonical ? name : `${name} (${e.canonical})`,
    fixed(e.perSession, Number.isInteger(e.perSession) ? 0 : 2),
    fixed(e.hooksPerDispatch, 2),
    e.cold.dispatchMs,
    e.dispatch.p50,
    e.dispatch.p90,
    e.dispatch.p99,
    e.dispatch.p999,
    e.hookSet.p50,
    e.hookSet.p99,
  ]);
  return [
    '<h2>Per event (ms)</h2>',
    cellTable(
      [
        'event',
        'per session',
        'hooks run',
        'cold',
        'p50',
        'p90',
        'p99',
        'p99.9',
        'hook set p50',
        'hook set p99',
      ],
      rows,
    ),
    `<p class="note"><strong>cold</strong>: the run's first call of the event (workers and processes
starting). p50…p99.9: the warm calls, around <code>dispatch()</code>. <strong>hook set</strong>: the wall
time of the whole set of hooks, first start to last end (a parallel event's hooks overlap: this is not their
sum).</p>`,
  ];
}

export function sessionSection(s: SessionCost): string[] {
  const rows = s.rows.map((r): Cell[] => [
    r.label === 'recorded' ? 'recorded mix' : r.label,
    int(r.toolCalls),
    r.totalMs / 1000,
    r.stages.queueMs / 1000,
    r.stages.transportMs / 1000,
    r.stages.runMs / 1000,
    r.stages.foldMs / 1000,
  ]);
  const rec = s.rows[0]!;
  const share = (v: number) => percent(v, rec.totalMs);
  const bars = s.rows.map((r) => ({
    label:
      r.label === 'recorded'
        ? `recorded mix (${int(r.toolCalls)} tool calls)`
        : `${r.label} (${int(r.toolCalls)} tool calls)`,
    tooltip: `${r.label}: ${int(r.toolCalls)} tool calls`,
    parts: r.stages,
  }));
  return [
    '<h2>What the hooks add to a session</h2>',
    stackedBarsSvg('Session cost by stage', bars, 's', 'seconds added to a session'),
    cellTable(
      ['session', 'tool calls', 'total (s)', 'queue (s)', 'spawn / isolate (s)', 'hook run (s)', 'fold (s)'],
      rows,
    ),
    `<p class="note">Shares at the recorded mix: queue ${share(rec.stages.queueMs)}, spawn / isolate
${share(rec.stages.transportMs)}, hook run ${share(rec.stages.runMs)}, fold ${share(rec.stages.foldMs)}.
Per tool call ${fixed(s.perToolCallMs, 3)} ms (every event but SessionStart and SessionEnd, at the
recorded mix), once per session ${fixed(s.perSessionMs, 3)} ms; the first calls add
${fixed(s.coldExtraMs, 1)} ms once per executor start. Tool calls per session: ${escapeHtml(
      Object.entries(s.distribution.toolCalls)
        .map(([k, v]) => `${k} ${int(v)}`)
        .join(', ') || 'none given',
    )} (${escapeHtml(s.distribution.source)}); the recording has ${fixed(s.toolCallsPerSession, Number.isInteger(s.toolCallsPerSession) ? 0 : 2)}
over ${s.sessions} session${s.sessions === 1 ? '' : 's'}.${s.note === undefined ? '' : ` ${escapeHtml(s.note)}.`}</p>`,
  ];
}

export function failureSection(perHook: Readonly<Record<string, HookSummary>>): string[] {
  const failing = Object.entries(perHook).filter(
    ([, h]) => h.failures !== undefined && h.failures.timeouts + h.failures.otherFailures > 0,
  );
  if (failing.length === 0) return [];
  const rows = failing.map(([id, h]): Cell[] => {
    const f = h.failures!;
    return [
      `hook ${id}`,
      int(h.count + h.notRun),
      int(f.timeouts),
      int(f.otherFailures),
      int(f.failedOpen),
      int(f.denied),
      f.securityFailures > 0 ? `${int(f.securityFailures)}: failed open` : '0',
    ];
  });
  const classes = failing.map(([, h]) => [
    undefined,
    undefined,
    undefined,
    undefined,
    h.failures!.securityFailures > 0 ? 'security' : undefined,
    undefined,
    h.failures!.securityFailures > 0 ? 'security' : undefined,
  ]);
  return [
    '<h2>Failures and how they resolved</h2>',
    cellTable(
      ['hook', 'calls', 'timeouts', 'other failures', 'failed open', 'denied', 'security failures'],
      rows,
      classes,
    ),
    `<p class="note"><strong>failed open</strong>: the call went on without the hook's verdict
(<code>onError: "skip"</code>); <strong>denied</strong>: the failure denied the call (<code>onError:
"deny"</code>). A hook that fails open on an event that can deny is a guard that did not guard: a
<strong>security failure</strong>.</p>`,
  ];
}

export function isolationSection(levels: readonly IsolationRun[]): string[] {
  const rows: Cell[][] = [];
  const classes: (string | undefined)[][] = [];
  for (const l of levels) {
    if (!l.available || l.overall === undefined) {
      rows.push([l.level, `unavailable: ${l.detail}${l.fix ? ` (${l.fix})` : ''}`, '', '', '', '', '']);
      classes.push([]);
      continue;
    }
    const o = l.overall;
    rows.push([
      l.level,
      o.p50,
      o.p90,
      o.p99,
      o.mean,
      times(l.vsFirst),
      l.session === undefined ? '—' : fixed(l.session.rows[0]!.totalMs / 1000, 3),
    ]);
    classes.push([]);
  }
  const hooks = levels
    .filter((l) => l.hooks !== undefined)
    .map(
      (l) =>
        `${escapeHtml(l.level)}: ${
          l
            .hooks!.filter((h) => h.isolation === 'process' || h.isolation === 'namespace')
            .map((h) => `${escapeHtml(h.id)} ${h.isolation}`)
            .join(', ') || 'no command hook'
        }`,
    );
  return [
    '<h2>Isolation levels (ms)</h2>',
    cellTable(['level', 'p50', 'p90', 'p99', 'mean', '× first', 'session, recorded (s)'], rows, classes),
    `<p class="note">The same hooks at each isolation level this host supports, their dispatch blocks
interleaved after the same baseline blocks. Each level is a floor: a hook that asks for more keeps it.
Command hooks ran as: ${hooks.join('; ')}.</p>`,
  ];
}

/** The security failures, first on the page, in red. */
export function securityBox(security: readonly string[]): string {
  if (security.length === 0) return '';
  return `<div class="security">${security.map((w) => escapeHtml(w)).join('<br>')}</div>`;
}
