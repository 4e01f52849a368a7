// The cumulative distribution of dispatch latency (the compare page overlays both runs): the share
// of dispatches at or below each latency on the log axis of the histogram, each series in its own
// look, with a marker and its name on the line, and markers at each run's p50 and p99.
import type { HistogramBucket } from './histogram.js';
import { escapeHtml, figure, logScale, r1 } from './report-axes.js';
import {
  type ChartMarker,
  domainOf,
  frame,
  M,
  type MarkerText,
  markerLegend,
  markerLines,
  PLOT_H,
  PLOT_W,
  withLegend,
  yLabel,
} from './report-log-chart.js';
import { legendSample, lineStyle, markerSvg, type SeriesLook } from './report-series.js';

/** One line of a CDF chart. */
export interface CdfSeries {
  buckets: HistogramBucket[];
  /** CSS class of the line (`cdf base`, `cdf new`), to find it by. */
  className: string;
  label: string;
  /** The name at the line. */
  short: string;
  look: SeriesLook;
}

function cdfPoints(buckets: HistogramBucket[], x: (v: number) => number, y: (f: number) => number): string {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  const points = [`${M.left},${r1(y(0))}`];
  let seen = 0;
  for (const b of buckets) {
    points.push(`${r1(x(b.fromMs))},${r1(y(total > 0 ? seen / total : 0))}`);
    seen += b.count;
    points.push(`${r1(x(b.toMs))},${r1(y(total > 0 ? seen / total : 0))}`);
  }
  points.push(`${M.left + PLOT_W},${r1(y(total > 0 ? 1 : 0))}`);
  return points.join(' ');
}

/** Where a series first reaches the share `f`: the upper edge of that bucket. */
function crossing(buckets: readonly HistogramBucket[], f: number): number | undefined {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  let seen = 0;
  for (const b of buckets) {
    seen += b.count;
    if (seen >= f * total) return b.toMs;
  }
  return undefined;
}

/**
 * The cumulative share of dispatches at or below each latency, several series overlaid, each in its
 * own look with a marker and its name where it crosses 25% (left of it) and 75% (right of it).
 */
export function cdfSvg(
  series: CdfSeries[],
  markers: ChartMarker[],
  title: string,
  markerText: MarkerText,
  caption: string,
): string {
  const { domain, drawn } = domainOf(
    series.flatMap((s) => s.buckets),
    markers,
  );
  const x = logScale(domain, M.left, M.left + PLOT_W);
  const y = (f: number) => M.top + PLOT_H - f * PLOT_H;
  const yTicks: [number, string][] = [0, 0.25, 0.5, 0.75, 0.9, 1].map((f) => [y(f), `${f * 100}%`]);
  const marks = markerLines(drawn, x);
  const named = series.flatMap((s, i) => {
    const f = i % 2 === 0 ? 0.25 : 0.75;
    const v = crossing(s.buckets, f);
    if (v === undefined) return [];
    const [px, py] = [x(v), y(f)];
    const anchor = i % 2 === 0 ? 'end' : 'start';
    const tx = i % 2 === 0 ? px - 8 : px + 8;
    return [
      markerSvg(s.look, px, py, 4),
      `<text x="${r1(tx)}" y="${r1(py + 4)}" text-anchor="${anchor}" class="end-label" style="fill:${s.look.ink}">${escapeHtml(s.short)}</text>`,
    ];
  });
  const body = [
    ...frame(title, domain, x, yTicks),
    ...series.map(
      (s) =>
        `<polyline points="${cdfPoints(s.buckets, x, y)}" class="${s.className}" style="${lineStyle(s.look)}"/>`,
    ),
    ...marks.parts,
    ...named,
    yLabel('dispatches ≤ latency'),
  ];
  const picture = withLegend('Cumulative distribution of dispatch latency', body, marks.rows, [
    ...series.map((s) => ({
      label: s.label,
      sample: (x0: number, y0: number) => legendSample(s.look, x0, y0),
    })),
    ...markerLegend(drawn, markerText),
  ]);
  return figure(picture, caption);
}
