// The latency histogram of the HTML report, as inline SVG (no script, no external reference), on a
// logarithmic latency axis fitted to the data, with vertical markers at the percentiles and at the
// baselines' medians, each named above the plot. The axis stretches to hold a baseline within a
// factor of 10 of the data; one further out is not drawn but named plainly in the caption. A legend
// under the plot names every line in full.
import type { HistogramBucket } from './histogram.js';
import { escapeHtml, figure, formatMs, logScale, niceStep, r1 } from './report-axes.js';
import {
  type ChartMarker,
  domainOf,
  frame,
  M,
  markerLegend,
  markerLines,
  offText,
  PLOT_H,
  PLOT_W,
  withLegend,
  yLabel,
} from './report-log-chart.js';

export { formatMs } from './report-axes.js';
export type { ChartMarker } from './report-log-chart.js';

/** Bins of the histogram over its domain. */
const BINS = 60;

/** The histogram's bars: the HDR buckets re-binned into BINS log-spaced bins over the domain. */
function bars(buckets: readonly HistogramBucket[], [lo, hi]: [number, number], x: (v: number) => number) {
  const bins = new Array<number>(BINS).fill(0);
  const span = Math.log10(hi) - Math.log10(lo);
  for (const b of buckets) {
    const mid = Math.sqrt(Math.max(b.fromMs, lo) * Math.max(b.toMs, lo));
    const i = Math.floor(((Math.log10(mid) - Math.log10(lo)) / span) * BINS);
    bins[Math.min(BINS - 1, Math.max(0, i))]! += b.count;
  }
  const top = Math.max(1, ...bins);
  const step = niceStep(top, 4);
  const yMax = Math.ceil(top / step) * step;
  const y = (c: number) => M.top + PLOT_H - (c / yMax) * PLOT_H;
  const yTicks: [number, string][] = [];
  for (let c = 0; c <= yMax; c += step) yTicks.push([y(c), c.toLocaleString('en-US')]);
  const rects = bins.flatMap((count, i) => {
    if (count === 0) return [];
    const from = lo * 10 ** ((i / BINS) * span);
    const to = lo * 10 ** (((i + 1) / BINS) * span);
    const w = Math.max(0.5, r1(x(to) - x(from) - 0.5));
    return [
      `<rect x="${r1(x(from))}" y="${r1(y(count))}" width="${w}" height="${r1(M.top + PLOT_H - y(count))}" class="bar"><title>${formatMs(from)}–${formatMs(to)} ms: ${count}</title></rect>`,
    ];
  });
  return { rects, yTicks };
}

/**
 * Bars: how many dispatches took each latency, re-binned into log-spaced bins over the data's range;
 * in a figure whose caption says what the bars and each line are, and names a baseline not drawn.
 */
export function histogramSvg(buckets: HistogramBucket[], markers: ChartMarker[], names?: ChartNames): string {
  const { domain, drawn, off } = domainOf(buckets, markers);
  const x = logScale(domain, M.left, M.left + PLOT_W);
  const { rects, yTicks } = bars(buckets, domain, x);
  const marks = markerLines(drawn, x);
  const body = [
    ...frame(names?.title ?? 'Dispatch latency histogram', domain, x, yTicks),
    ...rects,
    ...marks.parts,
    yLabel('dispatches'),
  ];
  const picture = withLegend('Histogram of dispatch latency', body, marks.rows, [
    { label: names?.series ?? 'dispatches per latency bin', className: 'bar', swatch: true },
    ...markerLegend(drawn, { percentile: 'p50, p90, p99, p99.9 of the dispatch latency' }),
  ]);
  const refs = drawn.filter((m) => m.kind === 'baseline');
  const caption = [
    'Blue bars: how many dispatches took each latency, on a log axis fitted to the data.',
    drawn.some((m) => m.kind === 'percentile')
      ? 'Red dashed lines: the p50, p90, p99 and p99.9 of the whole-dispatch latency (measured around <code>dispatch()</code>).'
      : '',
    refs.length === 0
      ? ''
      : `Each baseline's median: ${refs.map((m) => `${escapeHtml(m.label)} ${m.words ?? ''}`.trim()).join(', ')}.`,
    'Each line is named above the plot (hover it for its value).',
    offText(off),
  ];
  return figure(picture, caption.filter((t) => t !== '').join(' '));
}

/** What a chart calls itself and its series. */
export interface ChartNames {
  title?: string;
  series?: string;
}
