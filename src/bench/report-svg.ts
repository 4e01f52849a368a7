// The two charts of the HTML report, as inline SVG (no script, no external reference): the latency
// histogram and its CDF, both on a logarithmic latency axis, with vertical markers at the
// percentiles and at the baselines' medians.
import type { HistogramBucket } from './histogram.js';

/** A vertical line on a chart: a percentile of the run, or a baseline's median. */
export interface ChartMarker {
  label: string;
  valueMs: number;
  kind: 'percentile' | 'baseline';
}

const W = 760;
const H = 330;
const M = { left: 64, right: 24, top: 92, bottom: 48 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;
const BINS = 60;
const LOWEST_MS = 0.001;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A latency for an axis label: `0.25`, `3.2`, `150`, `2 s`. */
export function formatMs(v: number): string {
  if (v >= 1000) return `${+(v / 1000).toPrecision(3)} s`;
  return String(+v.toPrecision(3));
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** The x scale: whole decades around every bucket and marker. */
function logDomain(buckets: HistogramBucket[], markers: ChartMarker[]): [number, number] {
  const values = [
    ...buckets.flatMap((b) => [Math.max(b.fromMs, LOWEST_MS), b.toMs]),
    ...markers.map((m) => Math.max(m.valueMs, LOWEST_MS)),
  ];
  if (values.length === 0) return [0.1, 10];
  let lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  if (hi <= lo) lo = hi / 10;
  return [lo, hi];
}

function xScale([lo, hi]: [number, number]): (v: number) => number {
  const a = Math.log10(lo);
  const span = Math.log10(hi) - a;
  return (v) => M.left + ((Math.log10(Math.max(v, lo)) - a) / span) * PLOT_W;
}

/** 1-2-5 ticks over whole decades. */
function logTicks([lo, hi]: [number, number]): number[] {
  const ticks: number[] = [];
  for (let d = Math.round(Math.log10(lo)); d <= Math.round(Math.log10(hi)); d++)
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** d;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(+v.toPrecision(3));
    }
  return ticks;
}

/** A round step for about `n` ticks from 0 to `max`. */
function niceStep(max: number, n: number): number {
  const raw = Math.max(max, 1) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function frame(title: string, xTicks: number[], x: (v: number) => number, yTicks: [number, string][]) {
  const y0 = M.top + PLOT_H;
  const parts = [
    `<text x="${W / 2}" y="18" text-anchor="middle" class="title">${escapeHtml(title)}</text>`,
    `<line x1="${M.left}" y1="${y0}" x2="${M.left + PLOT_W}" y2="${y0}" class="axis"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${y0}" class="axis"/>`,
  ];
  for (const t of xTicks) {
    const px = r1(x(t));
    parts.push(
      `<line x1="${px}" y1="${M.top}" x2="${px}" y2="${y0}" class="grid"/>`,
      `<line x1="${px}" y1="${y0}" x2="${px}" y2="${y0 + 5}" class="axis"/>`,
      `<text x="${px}" y="${y0 + 18}" text-anchor="middle">${formatMs(t)}</text>`,
    );
  }
  for (const [py, label] of yTicks) {
    parts.push(
      `<line x1="${M.left}" y1="${r1(py)}" x2="${M.left + PLOT_W}" y2="${r1(py)}" class="grid"/>`,
      `<text x="${M.left - 8}" y="${r1(py + 4)}" text-anchor="end">${escapeHtml(label)}</text>`,
    );
  }
  parts.push(
    `<text x="${M.left + PLOT_W / 2}" y="${H - 8}" text-anchor="middle" class="label">latency (ms, log scale)</text>`,
  );
  return parts;
}

/** Approximate width of a label at the charts' 11px font. */
const textWidth = (text: string) => text.length * 6.2 + 14;
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

/** Marker lines first, then their labels on top (haloed in white, so a line never crosses a label). */
function markerLines(markers: ChartMarker[], x: (v: number) => number): string[] {
  const xs = markers.map((m) => r1(x(m.valueMs)));
  const texts = markers.map((m) => `${m.label} ${formatMs(m.valueMs)}`);
  const places = placeLabels(xs, texts);
  // Row 0 is the one just above the plot.
  const rowY = (row: number) => M.top - 8 - row * 13;
  const lines = markers.map(
    (m, i) =>
      `<g class="marker ${m.kind}"><title>${escapeHtml(texts[i]!)} ms</title><line x1="${xs[i]}" y1="${rowY(places[i]!.row) + 3}" x2="${xs[i]}" y2="${M.top + PLOT_H}"/></g>`,
  );
  const labels = markers.map(
    (m, i) =>
      `<g class="marker ${m.kind}"><title>${escapeHtml(texts[i]!)} ms</title><text x="${r1(places[i]!.x)}" y="${rowY(places[i]!.row)}" text-anchor="middle">${escapeHtml(texts[i]!)}</text></g>`,
  );
  return [...lines, ...labels];
}

const svg = (label: string, body: string[]) =>
  `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)}">${body.join('')}</svg>`;

/** Bars: how many dispatches took each latency, re-binned into log-spaced bins. */
export function histogramSvg(buckets: HistogramBucket[], markers: ChartMarker[]): string {
  const domain = logDomain(buckets, markers);
  const x = xScale(domain);
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
  const body = [
    ...frame('Dispatch latency histogram', logTicks(domain), x, yTicks),
    ...bars,
    ...markerLines(markers, x),
    `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">dispatches</text>`,
  ];
  return svg('Histogram of dispatch latency', body);
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
    points.push(`${r1(x(b.fromMs))},${r1(y(seen / total))}`);
    seen += b.count;
    points.push(`${r1(x(b.toMs))},${r1(y(seen / total))}`);
  }
  points.push(`${M.left + PLOT_W},${r1(y(total > 0 ? 1 : 0))}`);
  return points.join(' ');
}

/** The cumulative share of dispatches at or below each latency; several series overlay. */
export function cdfSvg(
  buckets: HistogramBucket[] | CdfSeries[],
  markers: ChartMarker[],
  title = 'Dispatch latency CDF',
): string {
  const series: CdfSeries[] =
    buckets.length > 0 && 'buckets' in buckets[0]!
      ? (buckets as CdfSeries[])
      : [{ buckets: buckets as HistogramBucket[], className: 'cdf' }];
  const domain = logDomain(
    series.flatMap((s) => s.buckets),
    markers,
  );
  const x = xScale(domain);
  const y = (f: number) => M.top + PLOT_H - f * PLOT_H;
  const yTicks: [number, string][] = [0, 0.25, 0.5, 0.75, 0.9, 1].map((f) => [y(f), `${f * 100}%`]);
  const legend = series.flatMap((s, i) =>
    s.label === undefined
      ? []
      : [
          `<g class="${s.className}"><line x1="${M.left + 12}" y1="${M.top + 24 + i * 16}" x2="${M.left + 36}" y2="${M.top + 14 + i * 16}"/>`,
          `<text x="${M.left + 42}" y="${M.top + 28 + i * 16}" class="legend">${escapeHtml(s.label)}</text></g>`,
        ],
  );
  const body = [
    ...frame(title, logTicks(domain), x, yTicks),
    ...series.map((s) => `<polyline points="${cdfPoints(s.buckets, x, y)}" class="${s.className}"/>`),
    ...markerLines(markers, x),
    ...legend,
    `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">dispatches ≤ latency</text>`,
  ];
  return svg('Cumulative distribution of dispatch latency', body);
}
