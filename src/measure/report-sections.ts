// The report's sections for a replay and for `--isolation`: per event name, the session cost (a
// table and a stacked bar per tool-call count), the failures per hook with how each resolved
// (failing open on an event that can deny in red), and one row per isolation level.
import type { EventSummary, HookSummary, IsolationRun, SessionCost } from './bench-result.js';
import { sessionNote } from './format-sections.js';
import { type Cell, formatColumns, int } from './number-format.js';
import { escapeHtml } from './report-axes.js';
import { stackedBarsSvg } from './report-charts.js';
import { eventRows, failureRows, isolationRows, sessionRows } from './section-rows.js';

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

/** A table from header-first rows (section-rows.ts). */
const rowsTable = (
  rows: readonly (readonly Cell[])[],
  classes?: readonly (readonly (string | undefined)[])[],
) => cellTable(rows[0]!.map(String), rows.slice(1), classes);

export function eventSection(perEvent: Readonly<Record<string, EventSummary>>): string[] {
  return [
    '<h2>Per event (ms)</h2>',
    rowsTable(eventRows(perEvent, 'event')),
    `<p class="note"><strong>cold</strong>: the run's first call of the event (workers and processes
starting). p50…p99.9: the warm calls, around <code>dispatch()</code>. <strong>hook set</strong>: the wall
time of the whole set of hooks, first start to last end (a parallel event's hooks overlap: this is not their
sum).</p>`,
  ];
}

export function sessionSection(s: SessionCost): string[] {
  const note = sessionNote(s);
  const bars = s.rows.map((r) => ({
    label: `${r.label === 'recorded' ? 'recorded mix' : r.label} (${int(r.toolCalls)} tool calls)`,
    tooltip: `${r.label}: ${int(r.toolCalls)} tool calls`,
    parts: r.stages,
  }));
  const rows = sessionRows(s, 'session');
  rows[0] = rows[0]!.map((h, i) => (i < 2 ? h : `${h} (s)`));
  return [
    '<h2>What the hooks add to a session</h2>',
    stackedBarsSvg('Session cost by stage', bars, 's', 'seconds added to a session'),
    rowsTable(rows),
    `<p class="note">Shares at the recorded mix: ${escapeHtml(note.shares)}. ${escapeHtml(
      note.perCall.charAt(0).toUpperCase() + note.perCall.slice(1),
    )}. ${escapeHtml(note.counts.charAt(0).toUpperCase() + note.counts.slice(1))}.${
      s.note === undefined ? '' : ` ${escapeHtml(s.note)}.`
    }</p>`,
  ];
}

export function failureSection(perHook: Readonly<Record<string, HookSummary>>): string[] {
  const failures = failureRows(perHook);
  if (failures === undefined) return [];
  const red = (on: boolean) => [
    undefined,
    undefined,
    undefined,
    undefined,
    on ? 'security' : undefined,
    undefined,
    on ? 'security' : undefined,
  ];
  const rows = failures.rows;
  rows[0] = rows[0]!.map((h, i) => (i === 0 ? 'hook' : h));
  return [
    '<h2>Failures and how they resolved</h2>',
    rowsTable(rows, failures.security.map(red)),
    `<p class="note"><strong>failed open</strong>: the call went on without the hook's verdict
(<code>onError: "skip"</code>); <strong>denied</strong>: the failure denied the call (<code>onError:
"deny"</code>). A hook that fails open on an event that can deny is a guard that did not guard: a
<strong>security failure</strong>.</p>`,
  ];
}

export function isolationSection(levels: readonly IsolationRun[]): string[] {
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
    rowsTable(isolationRows(levels, 'level')),
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
