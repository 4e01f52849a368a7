// `hookwarden bench compare --report compare.html`: both runs' CDFs overlaid on one chart, the
// comparison table with each verdict, and the notes (what else differs between the runs).
import type { BenchResult } from './bench-result.js';
import { type CompareResult, signed } from './compare.js';
import { seriesLabel } from './format-compare.js';
import { buildLine, nameCell, page, table, warningsBox } from './report-html.js';
import { type ChartMarker, cdfSvg, escapeHtml } from './report-svg.js';

const ms = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
const verdictClass = { slower: 'slower', faster: 'faster' } as Record<string, string>;

export function renderCompareReport(
  base: BenchResult,
  next: BenchResult,
  c: CompareResult,
  baseLabel: string,
  newLabel: string,
): string {
  const marks: ChartMarker[] = [
    { label: 'base p50', valueMs: base.overall.p50, kind: 'baseline' as const },
    { label: 'new p50', valueMs: next.overall.p50, kind: 'percentile' as const },
    { label: 'base p99', valueMs: base.overall.p99, kind: 'baseline' as const },
    { label: 'new p99', valueMs: next.overall.p99, kind: 'percentile' as const },
  ].filter((m) => m.valueMs > 0);
  const rows = c.series.map((s) => {
    const cell = (v: number | undefined) => `<td>${v === undefined ? '—' : ms(v)}</td>`;
    const delta = (v: number | undefined) => `<td>${v === undefined ? '—' : signed(v)}</td>`;
    return `<tr>${nameCell(seriesLabel(s))}${cell(s.base?.p50)}${cell(s.new?.p50)}${delta(s.change?.p50)}${delta(s.change?.p90)}${delta(s.change?.p99)}<td>${s.p ?? '—'}</td><td class="${verdictClass[s.verdict] ?? 'same'}">${s.verdict}</td></tr>`;
  });
  const run = (label: string, r: BenchResult) =>
    `${escapeHtml(label)}: ${buildLine(r)}, ${r.iterations.toLocaleString('en-US')} dispatches in ${r.blocks.length} blocks, concurrency ${r.concurrency}, started ${escapeHtml(r.startedAt)}`;
  return page('hookwarden bench compare', [
    `<h1>hookwarden bench compare — ${escapeHtml(next.event)}</h1>`,
    `<p class="meta">base ${run(baseLabel, base)}<br>new ${run(newLabel, next)}</p>`,
    `<p class="${c.regression ? 'slower' : 'faster'}">${c.regression ? 'Regression: a series got significantly slower.' : 'No regression.'}</p>`,
    warningsBox(c.notes),
    cdfSvg(
      [
        { buckets: base.histogram, className: 'cdf base', label: `base: ${baseLabel}` },
        { buckets: next.histogram, className: 'cdf new', label: `new: ${newLabel}` },
      ],
      marks,
      'Dispatch latency CDF, both runs (raw ms)',
    ),
    `<p class="note">The CDFs are raw latencies: when the baselines moved between the runs, part of the
gap is the machine. The table divides each run by its own baselines first.</p>`,
    '<h2>Changes</h2>',
    table(
      '<th>series</th><th>p50 base (ms)</th><th>p50 new (ms)</th><th>Δ p50</th><th>Δ p90</th><th>Δ p99</th><th>p-value</th><th>verdict</th>',
      rows,
    ),
    `<p class="note">Δ: the change of each percentile${c.normalize ? ' after dividing each run by its own baselines (command hooks by spawn, JS hooks by eval, dispatches by the baselines of the hook types they ran)' : ', raw'}.
p-value: two-sided Mann-Whitney U test over the two runs' per-block medians. A series is slower or
faster when p &lt; ${c.alpha} and its p50 moved more than ${(c.threshold * 100).toFixed(1)}%.</p>`,
  ]);
}
