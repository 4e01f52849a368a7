// `hookwarden bench --report out.html`: one self-contained page (inline CSS and SVG, no script, no
// external reference) rendered from a BenchResult alone, so it opens offline and can be rebuilt
// from saved `--json` output.
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, HookRatios, LatencySummary, OverallRatios } from './bench-result.js';
import { type ChartMarker, cdfSvg, escapeHtml, histogramSvg } from './report-svg.js';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;color:#1d1d1f;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.8em}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .7em;text-align:right;border-bottom:1px solid #ddd}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f6;font-weight:600}
.meta{color:#555}.note{color:#555;font-size:.92em}code{background:#f4f4f6;padding:0 .25em}
svg{display:block;margin:1em 0;font:11px system-ui,sans-serif;max-width:100%;height:auto}
svg .title{font-size:13px;font-weight:600}svg .label{fill:#555}
svg .axis{stroke:#333}svg .grid{stroke:#eee}svg .bar{fill:#4a7bd0}
svg .cdf{fill:none;stroke:#4a7bd0;stroke-width:2}
svg .marker line{stroke-width:1.2;stroke-dasharray:4 3}
svg .percentile line{stroke:#c0392b}svg .percentile text{fill:#c0392b}
svg .baseline line{stroke:#777}svg .baseline text{fill:#555}`;

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
const x = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v.toFixed(2)}×`);

function latencyCells(s: LatencySummary): string {
  return [s.count, s.p50, s.p90, s.p99, s.p999, s.max, s.mean].map((v) => `<td>${n(v)}</td>`).join('');
}

const LATENCY_HEAD =
  '<th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th>';

function table(head: string, rows: string[]): string {
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
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
        `<th>hook</th><th>type</th>${LATENCY_HEAD}<th>queued p50</th><th>queued p99</th><th>not run</th>`,
        hooks.map(
          ([id, h]) =>
            `<tr><td>${escapeHtml(id)}</td><td>${h.type}</td>${latencyCells(h)}<td>${n(h.queuedP50)}</td><td>${n(h.queuedP99)}</td><td>${h.notRun}</td></tr>`,
        ),
      ),
    );
  if (r.perTenant !== undefined)
    out.push(
      '<h2>Per tenant (ms)</h2>',
      table(
        `<th>tenant</th>${LATENCY_HEAD}<th>dispatches/s</th>`,
        Object.entries(r.perTenant).map(
          ([id, t]) =>
            `<tr><td>${escapeHtml(id)}</td>${latencyCells(t)}<td>${n(t.throughputPerSec)}</td></tr>`,
        ),
      ),
    );
  return out;
}

function ratioTable(r: BenchResult): string[] {
  const o: OverallRatios = r.ratios.overall;
  const row = (label: string, q: HookRatios & Partial<OverallRatios>) =>
    `<tr><td>${label}</td><td>${x(q.vsPiscinaEcho)}</td><td>${x(q.vsSpawnTrue)}</td><td>${x(q.vsQuickJsEval)}</td><td>${x(q.vsEchoPlusEval)}</td></tr>`;
  return [
    '<h2>Ratios (p50 ÷ baseline p50)</h2>',
    table('<th>series</th><th>÷ echo</th><th>÷ spawn</th><th>÷ QuickJS eval</th><th>÷ echo + eval</th>', [
      row('dispatch, overall', o),
      ...Object.entries(r.ratios.perHook).map(([id, q]) => row(`hook ${escapeHtml(id)}`, q)),
    ]),
    `<p class="note">A ratio says how many times its baseline a figure costs. The overall dispatch is
compared with every baseline; a command hook's own latency (spawn to exit) with <code>spawn('/bin/true')</code>;
a JS hook's own latency (the isolate call inside its worker) with the in-thread fresh QuickJS evaluation
(like for like) and with echo + eval (the floor of a JS hook end to end). Baselines are measured one call
at a time in blocks between the dispatch blocks of this run; at concurrency above 1 the dispatch figures
include queueing, so compare ratios at concurrency 1.</p>`,
  ];
}

function countsTable(title: string, counts: Record<string, number | undefined>): string[] {
  const rows = Object.entries(counts).map(
    ([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${n(v ?? 0)}</td></tr>`,
  );
  return rows.length === 0 ? [] : [`<h2>${title}</h2>`, table('<th></th><th>count</th>', rows)];
}

function markers(r: BenchResult): ChartMarker[] {
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

/** The HTML page for `result`: summary tables, ratios, and the histogram and CDF as inline SVG. */
export function renderHtmlReport(r: BenchResult): string {
  const m = r.machine;
  const sources = [...r.config, ...r.policy.map((p) => `${p} (policy)`)].map(escapeHtml).join(', ');
  const meta = [
    `config ${sources || '—'}`,
    `${n(r.iterations)} dispatches after ${n(r.warmup)} warm-up, concurrency ${r.concurrency}, ${r.tenants} tenant${r.tenants === 1 ? '' : 's'}`,
    `${n(r.throughputPerSec)} dispatches/s over ${n(r.durationMs / 1000)} s of dispatching`,
    `${escapeHtml(m.cpuModel)} × ${m.cpus}, Node ${escapeHtml(m.node)}, ${escapeHtml(`${m.platform}/${m.arch}`)}, started ${escapeHtml(r.startedAt)}`,
  ];
  const body = [
    `<h1>hookwarden bench — ${escapeHtml(r.event)}</h1>`,
    `<p class="meta">${meta.join('<br>')}</p>`,
    histogramSvg(r.histogram, markers(r)),
    cdfSvg(r.histogram, markers(r)),
    `<p class="note">Red: percentiles of the whole-dispatch latency (measured around <code>dispatch()</code>).
Grey: the baselines' medians. Latencies are HDR-histogram figures with 3 significant digits; the charts
plot the histogram at 2.</p>`,
    ...latencyTables(r),
    ...ratioTable(r),
    ...countsTable('Verdicts', r.decisions),
    ...countsTable('Hook failures by error code', r.errors),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>hookwarden bench — ${escapeHtml(r.event)}</title><style>${STYLE}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}
