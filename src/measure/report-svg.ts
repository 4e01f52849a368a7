// The latency histogram and the CDF of the HTML reports, as inline SVG (no script, no external
// reference), on a logarithmic latency axis fitted to the data, with vertical markers at the
// percentiles and at the baselines' medians (a marker outside the data's range sits at the edge,
// pointing out), and a legend under the plot that names every line in full.
import type { HistogramBucket } from './histogram.js';
import {
  escapeHtml,
  fitLogDomain,
  formatMs,
  type LegendItem,
  legendRows,
  logScale,
  logTicks,
  niceStep,
  r1,
  spacedLabels,
  svg,
  textWidth,
  W,
} from './report-axes.js';

export { escapeHtml, formatMs } from './report-axes.js';

/** A vertical line on a chart: a percentile of the run, or a baseline's median. */
export interface ChartMarker {
  label: string;
  valueMs: number;
  kind: 'percentile' | 'baseline';
  /** Extra CSS class (a baseline's own colour and dash). */
  className?: string;
  /** Its entry in the legend (the whole name); markers without a class share the percentile entry. */
  legend?: string;
}

const M = { left: 64, right: 24, top: 92, bottom: 48 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = 330 - M.top - M.bottom;
const BINS = 60;
const LABEL_ROWS = 4;

/**
 * Places each marker's label in the first of LABEL_ROWS rows above the plot where it does not
 * overlap a label already there (markers taken left to right); when every row is taken, in the
 * row whose last label ends furthest left, nudged right past it. Returns the row and x per marker.
 */
export function placeLabels(xs: readonly number[], texts: readonly string[]): { row: number; x: number }[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const ends = new Array<number>(LABEL_ROWS).fill(Number.NEGATIVE_INFINITY);
  const out = new Array<{ row: number; x: number }>(xs.length);
  for (const i of order) {
    const w = textWidth(texts[i]!);
    const want = Math.min(Math.max(xs[i]!, M.left + w / 2), W - w / 2);
    let row = ends.findIndex((end) => want - w / 2 >= end);
    let x = want;
    if (row === -1) {
      row = ends.indexOf(Math.min(...ends));
      x = Math.min(ends[row]! + w / 2, W - w / 2);
    }
    ends[row] = x + w / 2;
    out[i] = { row, x };
  }
  return out;
}

/** The domain: the data's range, and the markers within a factor of 3 of it (the others point out). */
function domainOf(buckets: readonly HistogramBucket[], markers: readonly ChartMarker[]): [number, number] {
  const data = buckets.flatMap((b) => [b.fromMs, b.toMs]).filter((v) => v > 0);
  if (data.length === 0) return fitLogDomain(markers.map((m) => m.valueMs));
  const lo = Math.min(...data);
  const hi = Math.max(...data);
  const near = markers.map((m) => m.valueMs).filter((v) => v >= lo / 3 && v <= hi * 3);
  return fitLogDomain([...data, ...near], 1.15);
}

/**
 * Marker lines first, then their labels on top (haloed in white, so a line never crosses a label);
 * `rows`: how many label rows they take.
 */
function markerLines(
  markers: readonly ChartMarker[],
  x: (v: number) => number,
  [lo, hi]: [number, number],
): { parts: string[]; rows: number } {
  const xs = markers.map((m) => r1(x(m.valueMs)));
  const texts = markers.map((m) => {
    const text = `${m.label} ${formatMs(m.valueMs)}`;
    return m.valueMs < lo ? `◀ ${text}` : m.valueMs > hi ? `${text} ▶` : text;
  });
  const places = placeLabels(xs, texts);
  // Row 0 is the one just above the plot.
  const rowY = (row: number) => M.top - 8 - row * 13;
  const cls = (m: ChartMarker) => `marker ${m.kind}${m.className === undefined ? '' : ` ${m.className}`}`;
  const lines = markers.map((m, i) =>
    m.valueMs < lo || m.valueMs > hi
      ? ''
      : `<g class="${cls(m)}"><title>${escapeHtml(texts[i]!)} ms</title><line x1="${xs[i]}" y1="${rowY(places[i]!.row) + 3}" x2="${xs[i]}" y2="${M.top + PLOT_H}"/></g>`,
  );
  const labels = markers.map(
    (m, i) =>
      `<g class="${cls(m)}"><title>${escapeHtml(texts[i]!)} ms</title><text x="${r1(places[i]!.x)}" y="${rowY(places[i]!.row)}" text-anchor="middle">${escapeHtml(texts[i]!)}</text></g>`,
  );
  return { parts: [...lines, ...labels], rows: Math.max(0, ...places.map((p) => p.row + 1)) };
}

function frame(
  title: string,
  domain: [number, number],
  x: (v: number) => number,
  yTicks: [number, string][],
) {
  const y0 = M.top + PLOT_H;
  const parts = [
    `<text x="${W / 2}" y="18" text-anchor="middle" class="title">${escapeHtml(title)}</text>`,
    `<line x1="${M.left}" y1="${y0}" x2="${M.left + PLOT_W}" y2="${y0}" class="axis"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${y0}" class="axis"/>`,
  ];
  const ticks = logTicks(domain);
  const shown = spacedLabels(ticks.map(x), ticks.map(formatMs));
  for (const [i, t] of ticks.entries()) {
    const px = r1(x(t));
    parts.push(
      `<line x1="${px}" y1="${M.top}" x2="${px}" y2="${y0}" class="grid"/>`,
      `<line x1="${px}" y1="${y0}" x2="${px}" y2="${y0 + 5}" class="axis"/>`,
      shown[i] ? `<text x="${px}" y="${y0 + 18}" text-anchor="middle">${formatMs(t)}</text>` : '',
    );
  }
  for (const [py, label] of yTicks) {
    parts.push(
      `<line x1="${M.left}" y1="${r1(py)}" x2="${M.left + PLOT_W}" y2="${r1(py)}" class="grid"/>`,
      `<text x="${M.left - 8}" y="${r1(py + 4)}" text-anchor="end">${escapeHtml(label)}</text>`,
    );
  }
  parts.push(
    `<text x="${M.left + PLOT_W / 2}" y="${y0 + 36}" text-anchor="middle" class="label">latency (ms, log scale)</text>`,
  );
  return parts;
}

const yLabel = (text: string) =>
  `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">${text}</text>`;

/**
 * The chart with its legend under it: the series, then one entry per marker kind and baseline. The
 * label rows the markers do not use are taken out (everything under the title moves up).
 */
function withLegend(label: string, body: string[], rowsUsed: number, items: readonly LegendItem[]): string {
  const top = M.top + PLOT_H + 46;
  const legend = legendRows(items, M.left, W - M.right, top);
  const shift = (LABEL_ROWS - Math.min(LABEL_ROWS, rowsUsed)) * 13;
  const [title, ...rest] = body;
  return svg(W, top + legend.height + 4 - shift, label, [
    title!,
    `<g transform="translate(0 ${-shift})">`,
    ...rest,
    ...legend.parts,
    '</g>',
  ]);
}

/** What the legend calls the markers without a class of their own: the percentiles, and grey ones. */
export interface MarkerText {
  percentile: string;
  baseline?: string;
}

function markerLegend(markers: readonly ChartMarker[], text: MarkerText): LegendItem[] {
  const items: LegendItem[] = [];
  if (markers.some((m) => m.kind === 'percentile'))
    items.push({ label: text.percentile, className: 'marker-sample percentile' });
  if (text.baseline !== undefined && markers.some((m) => m.kind === 'baseline' && m.className === undefined))
    items.push({ label: text.baseline, className: 'marker-sample baseline' });
  for (const m of markers)
    if (m.kind === 'baseline' && m.className !== undefined)
      items.push({ label: m.legend ?? m.label, className: `marker-sample ${m.className}` });
  return items;
}

/** Bars: how many dispatches took each latency, re-binned into log-spaced bins over the data's range. */
export function histogramSvg(buckets: HistogramBucket[], markers: ChartMarker[], names?: ChartNames): string {
  const domain = domainOf(buckets, markers);
  const x = logScale(domain, M.left, M.left + PLOT_W);
  const [lo, hi] = domain;
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
  const bars = bins.flatMap((count, i) => {
    if (count === 0) return [];
    const from = lo * 10 ** ((i / BINS) * span);
    const to = lo * 10 ** (((i + 1) / BINS) * span);
    const x0 = r1(x(from));
    const w = Math.max(0.5, r1(x(to) - x(from) - 0.5));
    return [
      `<rect x="${x0}" y="${r1(y(count))}" width="${w}" height="${r1(M.top + PLOT_H - y(count))}" class="bar"><title>${formatMs(from)}–${formatMs(to)} ms: ${count}</title></rect>`,
    ];
  });
  const marks = markerLines(markers, x, domain);
  const body = [
    ...frame(names?.title ?? 'Dispatch latency histogram', domain, x, yTicks),
    ...bars,
    ...marks.parts,
    yLabel('dispatches'),
  ];
  return withLegend('Histogram of dispatch latency', body, marks.rows, [
    { label: names?.series ?? 'dispatches per latency bin', className: 'bar', swatch: true },
    ...markerLegend(markers, { percentile: 'p50, p90, p99, p99.9 of the dispatch latency' }),
  ]);
}

/** What a chart calls itself and its series. */
export interface ChartNames {
  title?: string;
  series?: string;
}

/** One line of a CDF chart. */
export interface CdfSeries {
  buckets: HistogramBucket[];
  /** CSS class of the line (`cdf`, `cdf base`, `cdf new`). */
  className: string;
  label?: string;
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

/** The cumulative share of dispatches at or below each latency; several series overlay. */
export function cdfSvg(
  buckets: HistogramBucket[] | CdfSeries[],
  markers: ChartMarker[],
  title = 'Dispatch latency CDF',
  markerText: MarkerText = { percentile: 'percentiles' },
): string {
  const series: CdfSeries[] =
    buckets.length > 0 && 'buckets' in buckets[0]!
      ? (buckets as CdfSeries[])
      : [
          {
            buckets: buckets as HistogramBucket[],
            className: 'cdf',
            label: 'dispatches at or below the latency',
          },
        ];
  const domain = domainOf(
    series.flatMap((s) => s.buckets),
    markers,
  );
  const x = logScale(domain, M.left, M.left + PLOT_W);
  const y = (f: number) => M.top + PLOT_H - f * PLOT_H;
  const yTicks: [number, string][] = [0, 0.25, 0.5, 0.75, 0.9, 1].map((f) => [y(f), `${f * 100}%`]);
  const marks = markerLines(markers, x, domain);
  const body = [
    ...frame(title, domain, x, yTicks),
    ...series.map((s) => `<polyline points="${cdfPoints(s.buckets, x, y)}" class="${s.className}"/>`),
    ...marks.parts,
    yLabel('dispatches ≤ latency'),
  ];
  return withLegend('Cumulative distribution of dispatch latency', body, marks.rows, [
    ...series.flatMap((s) => (s.label === undefined ? [] : [{ label: s.label, className: s.className }])),
    ...markerLegend(markers, markerText),
  ]);
}
