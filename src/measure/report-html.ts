// `hookwarden bench --report out.html` and `bench report`: one self-contained page (inline CSS and
// SVG, no script, no external reference) rendered from a BenchResult alone, so it opens offline and
// can be rebuilt from saved `--json` output. Every string from a config or an input is escaped.
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, HookRatios, OverallRatios } from './bench-result.js';
import { type Cell, int, times } from './number-format.js';
import { BASELINE_SHORT, baselineClass, baselineLegend, escapeHtml, figure } from './report-axes.js';
import { stageBarsSvg } from './report-charts.js';
import { overTimeSvg } from './report-over-time.js';
import { type PercentileSeries, percentileSvg } from './report-percentiles.js';
import {
  cellTable,
  eventSection,
  failureSection,
  isolationSection,
  nameCell,
  securityBox,
  sessionSection,
  table,
} from './report-sections.js';
import { MAIN_LOOK, seriesLook } from './report-series.js';
import { BASELINE_LOOKS, REPORT_STYLE } from './report-style.js';
import { type ChartMarker, histogramSvg } from './report-svg.js';
import { describeConditions } from './run-conditions.js';
import { LATENCY_HEAD, latencyCells } from './section-rows.js';
import { SECURITY } from './warnings.js';

export { table } from './report-sections.js';

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });

function latencyTables(r: BenchResult): string[] {
  const out = [
    '<h2>Latency (ms)</h2>',
    cellTable(
      ['series', ...LATENCY_HEAD],
      [
        ['dispatch, overall', ...latencyCells(r.overall)],
        ...BASELINE_NAMES.map((b): Cell[] => [
          `baseline: ${BASELINE_LABELS[b]}`,
          ...latencyCells(r.baselines[b]),
        ]),
      ],
    ),
  ];
  const hooks = Object.entries(r.perHook);
  if (hooks.length > 0)
    out.push(
      '<h2>Per hook (ms)</h2>',
      cellTable(
        ['hook', 'type', ...LATENCY_HEAD, 'queued p50', 'queued p99', 'not run', 'failures'],
        hooks.map(([id, h]): Cell[] => [
          id,
          h.type,
          ...latencyCells(h),
          h.queuedP50,
          h.queuedP99,
          int(h.notRun),
          int(Object.values(h.errors).reduce((a, b) => a + b, 0)),
        ]),
      ),
    );
  if (r.perTenant !== undefined)
    out.push(
      '<h2>Per tenant (ms)</h2>',
      cellTable(
        ['tenant', ...LATENCY_HEAD, 'dispatches/s'],
        Object.entries(r.perTenant).map(([id, t]): Cell[] => [
          id,
          ...latencyCells(t),
          int(t.throughputPerSec),
        ]),
      ),
    );
  return out;
}

function ratioTable(r: BenchResult): string[] {
  const o: OverallRatios = r.ratios.overall;
  const row = (label: string, q: HookRatios & Partial<OverallRatios>) =>
    `<tr>${nameCell(label)}${[q.vsPiscinaEcho, q.vsSpawnTrue, q.vsQuickJsEval, q.vsEchoPlusEval].map((v) => `<td>${times(v)}</td>`).join('')}</tr>`;
  const queued = r.concurrency > 1;
  const explain = queued
    ? `<p class="note"><strong>Greyed: not like for like.</strong> This run had ${r.concurrency} dispatches in flight at once, so
each dispatch's latency includes waiting behind the others, while the baselines were measured one call at
a time. These ratios say how much queueing the load adds, not what a dispatch costs: for ratios, run at
<code>--concurrency 1</code>; at this concurrency, read the throughput.</p>`
    : `<p class="note">A ratio says how many times its baseline a figure costs. The overall dispatch is
compared with every baseline; a command hook's own latency (spawn to exit) with <code>spawn('/bin/true')</code>;
a JS hook's own latency (the isolate call inside its worker) with the in-thread fresh QuickJS evaluation
(like for like) and with echo + eval (the floor of a JS hook end to end). Baselines are measured one call
at a time in blocks between the dispatch blocks of this run.</p>`;
  return [
    '<h2>Ratios (p50 ÷ baseline p50)</h2>',
    `<div class="side">${table(
      '<th>series</th><th>÷ echo</th><th>÷ spawn</th><th>÷ QuickJS eval</th><th>÷ echo + eval</th>',
      [
        row('dispatch, overall', o),
        ...Object.entries(r.ratios.perHook).map(([id, q]) => row(`hook ${id}`, q)),
      ],
      queued ? 'queued' : undefined,
    )}${explain}</div>`,
  ];
}

function countsTable(title: string, counts: Record<string, number | undefined>): string[] {
  const rows = Object.entries(counts).map(([k, v]): Cell[] => [k, int(v ?? 0)]);
  return rows.length === 0 ? [] : [`<h2>${title}</h2>`, cellTable(['', 'count'], rows)];
}

function failuresPerHook(r: BenchResult): string[] {
  const codes = [...new Set(Object.values(r.perHook).flatMap((h) => Object.keys(h.errors)))].sort();
  if (codes.length === 0) return [];
  const rows = Object.entries(r.perHook).map(([id, h]): Cell[] => [
    id,
    ...codes.map((c) => int(h.errors[c] ?? 0)),
  ]);
  return ['<h2>Hook failures per hook and error code</h2>', cellTable(['hook', ...codes], rows)];
}

function markers(r: Pick<BenchResult, 'overall' | 'baselines'>): ChartMarker[] {
  return [
    { label: 'p50', valueMs: r.overall.p50, kind: 'percentile' as const },
    { label: 'p90', valueMs: r.overall.p90, kind: 'percentile' as const },
    { label: 'p99', valueMs: r.overall.p99, kind: 'percentile' as const },
    { label: 'p99.9', valueMs: r.overall.p999, kind: 'percentile' as const },
    ...BASELINE_NAMES.map((b) => ({
      label: BASELINE_SHORT[b],
      valueMs: r.baselines[b].p50,
      kind: 'baseline' as const,
      className: baselineClass(b),
      legend: baselineLegend(b, ', p50'),
      name: baselineLegend(b, ', p50'),
      words: `(${BASELINE_LOOKS[b].words})`,
    })),
  ].filter((m) => m.valueMs > 0);
}

/** The lines of the percentile plot: the whole dispatch, and each event of a replay (the 10 busiest). */
function percentileSeries(r: BenchResult): PercentileSeries[] {
  const out: PercentileSeries[] = [
    { label: 'dispatch, overall', short: 'all dispatches', buckets: r.histogram, look: MAIN_LOOK },
  ];
  const events = Object.entries(r.perEvent ?? {});
  if (events.length < 2) return out;
  const busiest = events.sort((a, b) => b[1].dispatch.count - a[1].dispatch.count).slice(0, 10);
  for (const [i, [name, e]] of busiest.entries())
    out.push({ label: `event ${name}`, short: name, buckets: e.histogram, look: seriesLook(i) });
  return out;
}

/** What the percentile plot shows, and how its lines are told apart. */
function percentileCaption(series: readonly PercentileSeries[]): string {
  const lines =
    series.length === 1
      ? 'The line is the whole-dispatch latency (measured around <code>dispatch()</code>).'
      : `The thick black line is the whole dispatch; each event has its own colour, dash and marker (${series
          .slice(1)
          .map((s) => `${escapeHtml(s.short ?? s.label)}: ${s.look.words}`)
          .join('; ')}).`;
  return `Latency against the percentile, the x axis a log scale of the tail: p50, p90, p99 and p99.9 are one step apart, each marked on every line. ${lines} Each line is named at its right end; grey horizontal lines are the baselines' medians. Latencies are HDR-histogram figures with 3 significant digits, plotted at 2.`;
}

/** hookwarden's version and commit, as one line. */
export function buildLine(r: BenchResult): string {
  const h = r.hookwarden;
  const commit =
    h.commit === null
      ? ''
      : ` commit ${h.commit.slice(0, 12)}${h.dirty === true ? ' (with uncommitted changes)' : ''}`;
  return `hookwarden ${escapeHtml(h.version)}${escapeHtml(commit)}`;
}

function description(r: BenchResult): string[] {
  const m = r.machine;
  const sources = [...r.config, ...r.policy.map((p) => `${p} (policy)`)].map(escapeHtml).join(', ');
  const replay =
    r.replay === undefined
      ? ''
      : `replay of ${escapeHtml(r.replay.source)}: ${n(r.replay.events)} events in ${r.replay.sessions} session${r.replay.sessions === 1 ? '' : 's'}, ${n(r.replay.passes)} measured pass${r.replay.passes === 1 ? '' : 'es'}; `;
  const meta = [
    `${buildLine(r)}; config ${sources || '—'}`,
    `${replay}${n(r.iterations)} dispatches in ${r.blocks.length} blocks after ${n(r.warmup)} warm-up, concurrency ${r.concurrency}, ${r.tenants} tenant${r.tenants === 1 ? '' : 's'}${r.input.varied ? ', input varied per dispatch (timestamp)' : ''}`,
    `${n(r.throughputPerSec)} dispatches/s over ${n(r.durationMs / 1000)} s of dispatching`,
    `${escapeHtml(m.cpuModel)} × ${m.cpus}, Node ${escapeHtml(m.node)}, ${escapeHtml(`${m.platform}/${m.arch}`)}, load ${m.loadAverage.map(n).join(' ')}, started ${escapeHtml(r.startedAt)}`,
    ...(r.conditions === undefined
      ? []
      : [`While measured: ${escapeHtml(describeConditions(r.conditions))}`]),
  ];
  const hooks = r.hooks.map(
    (h) =>
      `<tr>${nameCell(h.id)}<td>${h.type}</td><td>${escapeHtml(h.event ?? r.event)}</td><td>${escapeHtml(h.scope)}</td><td>${h.isolation}</td><td>${h.onError ?? '—'}</td><td><code title="${escapeHtml(h.digest)}">${escapeHtml(h.digest.slice(0, 19))}</code></td></tr>`,
  );
  const input =
    r.input.value === undefined
      ? `<p class="meta">Input: ${r.replay === undefined ? 'redacted' : 'the recorded events'}, digest <code>${escapeHtml(r.input.digest)}</code></p>`
      : `<details><summary>Input (digest <code>${escapeHtml(r.input.digest.slice(0, 19))}</code>)</summary><pre>${escapeHtml(JSON.stringify(r.input.value, null, 2))}</pre></details>`;
  return [
    `<p class="meta">${meta.join('<br>')}</p>`,
    hooks.length === 0
      ? ''
      : table(
          '<th>hook</th><th>type</th><th>event</th><th>scope</th><th>isolation</th><th>onError</th><th>digest</th>',
          hooks,
        ),
    input,
  ];
}

export function warningsBox(warnings: readonly string[], title = 'Warnings'): string {
  if (warnings.length === 0) return '';
  return `<div class="warn"><strong>${title}</strong><ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></div>`;
}

export function page(title: string, body: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}

/** The HTML page for `result`: description, charts (histogram, percentiles, over time, stages) and tables. */
export function renderHtmlReport(r: BenchResult): string {
  const security = r.warnings.filter((w) => w.startsWith(SECURITY));
  const series = percentileSeries(r);
  const title = r.replay === undefined ? r.event : `replay of ${r.replay.source}`;
  return page(`hookwarden bench — ${title}`, [
    `<h1>hookwarden bench — ${escapeHtml(title)}</h1>`,
    securityBox(security),
    ...description(r),
    warningsBox(r.warnings.filter((w) => !w.startsWith(SECURITY))),
    ...(r.session === undefined ? [] : sessionSection(r.session)),
    ...(r.isolation === undefined ? [] : isolationSection(r.isolation)),
    ...failureSection(r.perHook),
    histogramSvg(r.histogram, markers(r)),
    percentileSvg(
      series,
      BASELINE_NAMES.map((name) => ({ name, p50: r.baselines[name].p50 })),
      'Dispatch latency by percentile',
      percentileCaption(series),
    ),
    ...(r.perEvent !== undefined && (r.replay !== undefined || Object.keys(r.perEvent).length > 1)
      ? eventSection(r.perEvent)
      : []),
    overTimeSvg(r),
    figure(
      stageBarsSvg(r),
      `<strong>queue</strong>: waiting for a turn (fair scheduler, lane slots);
<strong>spawn / isolate</strong>: a command hook's scratch directory, fork/exec and clean-up, a JS hook's hop
to its worker thread and back (messages, structured clone, the worker's work around the isolate call);
<strong>hook run</strong>: the process from exec to exit, or the isolate call; <strong>fold &amp; result</strong>:
the rest of the dispatch (resolve, match, validate, fold, build the result). Means, so the parts add up
to the mean latency (${n(r.stages.overall.totalMs)} ms).`,
    ),
    ...latencyTables(r),
    ...failuresPerHook(r),
    ...ratioTable(r),
    ...countsTable('Verdicts', r.decisions),
    ...countsTable('Hook failures by error code', r.errors),
  ]);
}
