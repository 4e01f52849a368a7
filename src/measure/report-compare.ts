// `hookwarden bench compare --report compare.html` (and `bench ab --report`): the outcome first (a
// regression, inconclusive and why, or none), the conditions each run was measured under, both
// runs' latencies overlaid (by percentile, on the log tail axis, and as CDFs), the comparison
// table with each series' noise floor and verdict, and the notes (what else differs).
import type { BenchResult } from './bench-result.js';
import type { CompareResult } from './compare.js';
import { COMPARE_HEAD, compareCells, conditionsText, methodLine, seriesLabel } from './format-compare.js';
import { formatColumns } from './number-format.js';
import { escapeHtml } from './report-axes.js';
import { cdfSvg } from './report-cdf.js';
import { buildLine, page, table, warningsBox } from './report-html.js';
import { percentileSvg } from './report-percentiles.js';
import { nameCell } from './report-sections.js';
import type { SeriesLook } from './report-series.js';
import type { ChartMarker } from './report-svg.js';

const BASE_LOOK: SeriesLook = {
  colour: '#6e6e78',
  ink: '#55555e',
  dash: '7 3',
  marker: 'circle',
  filled: false,
  width: 2.2,
  words: 'grey dashed, hollow circles',
};
const NEW_LOOK: SeriesLook = {
  colour: '#D55E00',
  ink: '#C05500',
  dash: '',
  marker: 'square',
  filled: true,
  width: 2.2,
  words: 'vermilion solid, squares',
};

const verdictClass: Record<string, string> = {
  slower: 'slower',
  faster: 'faster',
  inconclusive: 'inconclusive',
};

function outcome(c: CompareResult): string {
  if (c.regression)
    return '<p class="outcome slower">Regression: a series got significantly slower, beyond its noise floor (exit 1).</p>';
  if (c.inconclusive)
    return `<p class="outcome inconclusive">Inconclusive (exit 3): these runs cannot tell a change from their noise. The reasons are under the table; run both on a quiet machine, or alternate them in one window with <code>hookwarden bench ab</code>.</p>`;
  return '<p class="outcome faster">No regression (exit 0).</p>';
}

/** `base: base.json`, or the label itself when it names its side already (`base (this build, …)`). */
const sided = (side: 'base' | 'new', label: string) =>
  label.startsWith(`${side} `) ? label : `${side}: ${label}`;

function charts(base: BenchResult, next: BenchResult, baseLabel: string, newLabel: string): string[] {
  const mark = (label: string, valueMs: number, className: string, legend?: string): ChartMarker => ({
    label,
    valueMs,
    kind: 'percentile',
    className,
    ...(legend === undefined ? {} : { legend }),
  });
  const marks = [
    mark('base p50', base.overall.p50, 'cmp-base', "the base run's p50 and p99"),
    mark('new p50', next.overall.p50, 'cmp-new', "the new run's p50 and p99"),
    mark('base p99', base.overall.p99, 'cmp-base'),
    mark('new p99', next.overall.p99, 'cmp-new'),
  ].filter((m) => m.valueMs > 0);
  const [bl, nl] = [sided('base', baseLabel), sided('new', newLabel)];
  const looks = `${escapeHtml(bl)}: ${BASE_LOOK.words}; ${escapeHtml(nl)}: ${NEW_LOOK.words}`;
  return [
    percentileSvg(
      [
        { label: bl, short: 'base', buckets: base.histogram, look: BASE_LOOK },
        { label: nl, short: 'new', buckets: next.histogram, look: NEW_LOOK },
      ],
      [],
      'Dispatch latency by percentile, both runs (raw ms)',
      `Both runs' whole-dispatch latency against the percentile (a log scale of the tail: p50, p90, p99 and p99.9 one step apart, marked on each line). ${looks}; each line is named at its end.`,
    ),
    cdfSvg(
      [
        {
          buckets: base.histogram,
          className: 'cdf base',
          label: bl,
          short: 'base',
          look: BASE_LOOK,
        },
        {
          buckets: next.histogram,
          className: 'cdf new',
          label: nl,
          short: 'new',
          look: NEW_LOOK,
        },
      ],
      marks,
      'Dispatch latency CDF, both runs (raw ms)',
      { percentile: '' },
      `The share of dispatches at or below each latency: ${looks}, each named where it crosses 25% (base) or 75% (new).
The vertical lines are each run's p50 and p99 in its own line's colour and dash, named above the plot. Both charts are
raw latencies: when the baselines moved between the runs, part of the gap is the machine; the table divides each run by
its own baselines first (not for <code>bench ab</code>, whose sides share one window).`,
    ),
  ];
}

function changes(c: CompareResult): string[] {
  const text = formatColumns(c.series.map(compareCells));
  const rows = c.series.map((s, i) => {
    const [label, ...rest] = text[i]!;
    return `<tr>${nameCell(label!)}${rest.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}<td class="${verdictClass[s.verdict] ?? 'same'}">${s.verdict}</td></tr>`;
  });
  const why = c.series.filter((s) => s.reason !== undefined);
  const head = [...COMPARE_HEAD, 'verdict'].map(
    (h, i) => `<th>${escapeHtml(i === 1 || i === 2 ? `${h} (ms)` : h)}</th>`,
  );
  return [
    '<h2>Changes</h2>',
    table(head.join(''), rows),
    why.length === 0
      ? ''
      : `<ul>${why.map((s) => `<li><strong>${escapeHtml(seriesLabel(s))}</strong>: inconclusive: ${escapeHtml(s.reason!)}</li>`).join('')}</ul>`,
    `<p class="note">${escapeHtml(methodLine(c))}. Δ: the change of each percentile${c.normalize ? ' after dividing each run by its own baselines (command hooks by spawn, JS hooks by eval, dispatches by the baselines of the hook types they ran)' : ', raw'}.
Floor: a change within it could be the runs' noise: ${c.mode === 'interleaved' ? "the drift of the pairs' ratio from the first half of the blocks to the second" : "the busier run's CPU wait and steal, and each run's own drift from its first half to its second"}.
A series is slower or faster when p &lt; ${c.alpha}, its p50 moved more than ${(c.threshold * 100).toFixed(1)}% and the change is beyond its floor.</p>`,
  ];
}

export function renderCompareReport(
  base: BenchResult,
  next: BenchResult,
  c: CompareResult,
  baseLabel: string,
  newLabel: string,
): string {
  const run = (label: string, r: BenchResult, noise: CompareResult['runs']['base']) =>
    `${escapeHtml(label)}: ${buildLine(r)}, ${r.iterations.toLocaleString('en-US')} dispatches in ${r.blocks.length} blocks, concurrency ${r.concurrency}, started ${escapeHtml(r.startedAt)}; ${escapeHtml(conditionsText(noise))}`;
  const what = (r: BenchResult) => (r.replay === undefined ? r.event : `replay of ${r.replay.source}`);
  const mode = c.mode === 'interleaved' ? 'bench ab (blocks alternated in one window)' : 'bench compare';
  return page('hookwarden bench compare', [
    `<h1>hookwarden ${mode} — ${escapeHtml(what(next))}</h1>`,
    `<p class="meta">${run(sided('base', baseLabel), base, c.runs.base)}<br>${run(sided('new', newLabel), next, c.runs.new)}</p>`,
    outcome(c),
    warningsBox(c.notes, 'Notes'),
    ...charts(base, next, baseLabel, newLabel),
    ...changes(c),
  ]);
}
