// `hookwarden bench compare --report compare.html`: both runs' latencies overlaid (by percentile,
// on the log tail axis, and as CDFs), the comparison table with each verdict, and the notes (what
// else differs between the runs).
import type { BenchResult } from './bench-result.js';
import type { CompareResult } from './compare.js';
import { compareCells } from './format-compare.js';
import { formatColumns } from './number-format.js';
import { buildLine, page, table, warningsBox } from './report-html.js';
import { percentileSvg } from './report-percentiles.js';
import { nameCell } from './report-sections.js';
import { type ChartMarker, cdfSvg, escapeHtml } from './report-svg.js';

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
  const text = formatColumns(c.series.map(compareCells));
  const rows = c.series.map((s, i) => {
    const [label, ...rest] = text[i]!;
    return `<tr>${nameCell(label!)}${rest.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}<td class="${verdictClass[s.verdict] ?? 'same'}">${s.verdict}</td></tr>`;
  });
  const run = (label: string, r: BenchResult) =>
    `${escapeHtml(label)}: ${buildLine(r)}, ${r.iterations.toLocaleString('en-US')} dispatches in ${r.blocks.length} blocks, concurrency ${r.concurrency}, started ${escapeHtml(r.startedAt)}`;
  const what = (r: BenchResult) => (r.replay === undefined ? r.event : `replay of ${r.replay.source}`);
  return page('hookwarden bench compare', [
    `<h1>hookwarden bench compare — ${escapeHtml(what(next))}</h1>`,
    `<p class="meta">base ${run(baseLabel, base)}<br>new ${run(newLabel, next)}</p>`,
    `<p class="${c.regression ? 'slower' : 'faster'}">${c.regression ? 'Regression: a series got significantly slower.' : 'No regression.'}</p>`,
    warningsBox(c.notes),
    percentileSvg(
      [
        { label: `base: ${baseLabel}`, buckets: base.histogram, className: 'pc-9 cmp-base' },
        { label: `new: ${newLabel}`, buckets: next.histogram, className: 'pc-2' },
      ],
      [],
      'Dispatch latency by percentile, both runs (raw ms)',
    ),
    cdfSvg(
      [
        { buckets: base.histogram, className: 'cdf base', label: `base: ${baseLabel}` },
        { buckets: next.histogram, className: 'cdf new', label: `new: ${newLabel}` },
      ],
      marks,
      'Dispatch latency CDF, both runs (raw ms)',
      { percentile: "the new run's p50 and p99", baseline: "the base run's p50 and p99" },
    ),
    `<p class="note">Both charts are raw latencies: when the baselines moved between the runs, part of the
gap is the machine. The table divides each run by its own baselines first.</p>`,
    '<h2>Changes</h2>',
    table(
      '<th>series</th><th>p50 base (ms)</th><th>p50 new (ms)</th><th>Δ p50</th><th>Δ p90</th><th>Δ p99</th><th>p‑value</th><th>verdict</th>',
      rows,
    ),
    `<p class="note">Δ: the change of each percentile${c.normalize ? ' after dividing each run by its own baselines (command hooks by spawn, JS hooks by eval, dispatches by the baselines of the hook types they ran)' : ', raw'}.
p-value: two-sided Mann-Whitney U test over the two runs' per-block medians. A series is slower or
faster when p &lt; ${c.alpha} and its p50 moved more than ${(c.threshold * 100).toFixed(1)}%.</p>`,
  ]);
}
