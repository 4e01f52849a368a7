// `hookwarden bench --report out.html` and `bench report`: one self-contained page (inline CSS and
// SVG, no script, no external reference) rendered from a BenchResult alone, so it opens offline and
// can be rebuilt from saved `--json` output. Every string from a config or an input is escaped.
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, HookRatios, LatencySummary, OverallRatios } from './bench-result.js';
import { overTimeSvg, stageBarsSvg } from './report-charts.js';
import { REPORT_STYLE } from './report-style.js';
import { type ChartMarker, cdfSvg, escapeHtml, histogramSvg } from './report-svg.js';

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
const x = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v.toFixed(2)}×`);
/** A table cell holding a config-given name: one line, cut with an ellipsis, whole in the tooltip. */
export const nameCell = (text: string) =>
  `<td class="name" title="${escapeHtml(text)}">${escapeHtml(text)}</td>`;

function latencyCells(s: LatencySummary): string {
  return [s.count, s.p50, s.p90, s.p99, s.p999, s.max, s.mean].map((v) => `<td>${n(v)}</td>`).join('');
}

const LATENCY_HEAD =
  '<th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th>';

export function table(head: string, rows: string[], className?: string): string {
  const cls = className === undefined ? '' : ` class="${className}"`;
  return `<table${cls}><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function latencyTables(r: BenchResult): string[] {
  const out = [
    '<h2>Latency (ms)</h2>',
    table(`<th>series</th>${LATENCY_HEAD}`, [
      `<tr><td>dispatch, overall</td>${latencyCells(r.overall)}</tr>`,
      ...BASELINE_NAMES.map(
        (b) => `<tr><td>baseline: ${escapeHtml(BASELINE_LABELS[b])}</td>${latencyCells(r.baselines[b])}</tr>`,
      ),
    ]),
  ];
  const hooks = Object.entries(r.perHook);
  if (hooks.length > 0)
    out.push(
      '<h2>Per hook (ms)</h2>',
      table(
        `<th>hook</th><th>type</th>${LATENCY_HEAD}<th>queued p50</th><th>queued p99</th><th>not run</th><th>failures</th>`,
        hooks.map(
          ([id, h]) =>
            `<tr>${nameCell(id)}<td>${h.type}</td>${latencyCells(h)}<td>${n(h.queuedP50)}</td><td>${n(h.queuedP99)}</td><td>${h.notRun}</td><td>${n(Object.values(h.errors).reduce((a, b) => a + b, 0))}</td></tr>`,
        ),
      ),
    );
  if (r.perTenant !== undefined)
    out.push(
      '<h2>Per tenant (ms)</h2>',
      table(
        `<th>tenant</th>${LATENCY_HEAD}<th>dispatches/s</th>`,
        Object.entries(r.perTenant).map(
          ([id, t]) => `<tr>${nameCell(id)}${latencyCells(t)}<td>${n(t.throughputPerSec)}</td></tr>`,
        ),
      ),
    );
  return out;
}

function ratioTable(r: BenchResult): string[] {
  const o: OverallRatios = r.ratios.overall;
  const row = (label: string, q: HookRatios & Partial<OverallRatios>) =>
    `<tr>${nameCell(label)}<td>${x(q.vsPiscinaEcho)}</td><td>${x(q.vsSpawnTrue)}</td><td>${x(q.vsQuickJsEval)}</td><td>${x(q.vsEchoPlusEval)}</td></tr>`;
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
  const rows = Object.entries(counts).map(([k, v]) => `<tr>${nameCell(k)}<td>${n(v ?? 0)}</td></tr>`);
  return rows.length === 0 ? [] : [`<h2>${title}</h2>`, table('<th></th><th>count</th>', rows)];
}

function failuresPerHook(r: BenchResult): string[] {
  const codes = [...new Set(Object.values(r.perHook).flatMap((h) => Object.keys(h.errors)))].sort();
  if (codes.length === 0) return [];
  const rows = Object.entries(r.perHook).map(
    ([id, h]) => `<tr>${nameCell(id)}${codes.map((c) => `<td>${n(h.errors[c] ?? 0)}</td>`).join('')}</tr>`,
  );
  return [
    '<h2>Hook failures per hook</h2>',
    table(`<th>hook</th>${codes.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}`, rows),
  ];
}

export function markers(r: Pick<BenchResult, 'overall' | 'baselines'>): ChartMarker[] {
  return [
    { label: 'p50', valueMs: r.overall.p50, kind: 'percentile' as const },
    { label: 'p90', valueMs: r.overall.p90, kind: 'percentile' as const },
    { label: 'p99', valueMs: r.overall.p99, kind: 'percentile' as const },
    { label: 'p99.9', valueMs: r.overall.p999, kind: 'percentile' as const },
    { label: 'echo', valueMs: r.baselines.piscinaEcho.p50, kind: 'baseline' as const },
    { label: 'spawn', valueMs: r.baselines.spawnTrue.p50, kind: 'baseline' as const },
    { label: 'eval', valueMs: r.baselines.quickJsEval.p50, kind: 'baseline' as const },
  ].filter((m) => m.valueMs > 0);
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
  const meta = [
    `${buildLine(r)}; config ${sources || '—'}`,
    `${n(r.iterations)} dispatches in ${r.blocks.length} blocks after ${n(r.warmup)} warm-up, concurrency ${r.concurrency}, ${r.tenants} tenant${r.tenants === 1 ? '' : 's'}${r.input.varied ? ', input varied per dispatch (timestamp)' : ''}`,
    `${n(r.throughputPerSec)} dispatches/s over ${n(r.durationMs / 1000)} s of dispatching`,
    `${escapeHtml(m.cpuModel)} × ${m.cpus}, Node ${escapeHtml(m.node)}, ${escapeHtml(`${m.platform}/${m.arch}`)}, load ${m.loadAverage.map(n).join(' ')}, started ${escapeHtml(r.startedAt)}`,
  ];
  const hooks = r.hooks.map(
    (h) =>
      `<tr>${nameCell(h.id)}<td>${h.type}</td><td>${escapeHtml(h.scope)}</td><td>${h.isolation}</td><td><code title="${escapeHtml(h.digest)}">${escapeHtml(h.digest.slice(0, 19))}</code></td></tr>`,
  );
  const input =
    r.input.value === undefined
      ? `<p class="meta">Input: redacted, digest <code>${escapeHtml(r.input.digest)}</code></p>`
      : `<details><summary>Input (digest <code>${escapeHtml(r.input.digest.slice(0, 19))}</code>)</summary><pre>${escapeHtml(JSON.stringify(r.input.value, null, 2))}</pre></details>`;
  return [
    `<p class="meta">${meta.join('<br>')}</p>`,
    hooks.length === 0
      ? ''
      : table('<th>hook</th><th>type</th><th>scope</th><th>isolation</th><th>digest</th>', hooks),
    input,
  ];
}

export function warningsBox(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  return `<div class="warn"><strong>Warnings</strong><ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></div>`;
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

/** The HTML page for `result`: description, charts (histogram, CDF, over time, stages) and tables. */
export function renderHtmlReport(r: BenchResult): string {
  return page(`hookwarden bench — ${r.event}`, [
    `<h1>hookwarden bench — ${escapeHtml(r.event)}</h1>`,
    ...description(r),
    warningsBox(r.warnings),
    histogramSvg(r.histogram, markers(r)),
    cdfSvg(r.histogram, markers(r)),
    `<p class="note">Red: percentiles of the whole-dispatch latency (measured around <code>dispatch()</code>).
Grey: the baselines' medians. Latencies are HDR-histogram figures with 3 significant digits; the charts
plot the histogram at 2.</p>`,
    overTimeSvg(r),
    `<p class="note">One point per block, in run order: a first block far above the rest is warm-up; a
trend is drift (the machine or hookwarden changing speed); baselines that move with the dispatches mean
the machine, not hookwarden, changed.</p>`,
    stageBarsSvg(r),
    `<p class="note"><strong>queue</strong>: waiting for a turn (fair scheduler, lane slots);
<strong>transport</strong>: a JS hook's hop to its worker thread and back (messages, structured clone, the
worker's work around the isolate call), a command hook's scratch directory, fork/exec and clean-up;
<strong>hook run</strong>: the isolate call, or the process from exec to exit; <strong>fold &amp; result</strong>:
the rest of the dispatch (resolve, match, validate, fold, build the result). Means, so the parts add up
to the mean latency (${n(r.stages.overall.totalMs)} ms).</p>`,
    ...latencyTables(r),
    ...failuresPerHook(r),
    ...ratioTable(r),
    ...countsTable('Verdicts', r.decisions),
    ...countsTable('Hook failures by error code', r.errors),
  ]);
}
