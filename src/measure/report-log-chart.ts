// What the histogram and the CDF share: a log latency axis fitted to the data, vertical markers at
// the percentiles and the baselines' medians (each named in rows above the plot, placed so that none
// overlaps another), the rule for a reference line too far from the data (named in the caption, not
// drawn), and the legend under the plot.
import type { HistogramBucket } from './histogram.js';
import {
  escapeHtml,
  fitLogDomain,
  formatMs,
  type LegendItem,
  legendRows,
  logTicks,
  offChart,
  r1,
  spacedLabels,
  svg,
  textWidth,
  W,
} from './report-axes.js';

/** A vertical line on a chart: a percentile of the run, or a baseline's median. */
export interface ChartMarker {
  label: string;
  valueMs: number;
  /** A percentile of the data (always on the chart), or a reference line (on it when near). */
  kind: 'percentile' | 'baseline';
  /** Extra CSS class (a baseline's own colour and dash). */
  className?: string;
  /** Its entry in the legend (the whole name); markers without a class share the percentile entry. */
  legend?: string;
  /** Its full name where the caption names it as off the chart. */
  name?: string;
  /** Its look in words, for the caption (`grey dotted`). */
  words?: string;
}

export const M = { left: 64, right: 24, top: 92, bottom: 48 };
export const PLOT_W = W - M.left - M.right;
export const PLOT_H = 330 - M.top - M.bottom;
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

/** The domain: the data's range, the percentile markers, and the reference lines near enough. */
export function domainOf(buckets: readonly HistogramBucket[], markers: readonly ChartMarker[]) {
  const data = buckets.flatMap((b) => [b.fromMs, b.toMs]).filter((v) => v > 0);
  const own = markers.filter((m) => m.kind === 'percentile' && m.valueMs > 0);
  const { shown, off } = offChart(
    [...data, ...own.map((m) => m.valueMs)],
    markers.filter((m) => m.kind === 'baseline'),
  );
  const values = [...data, ...own.map((m) => m.valueMs), ...shown.map((m) => m.valueMs)];
  const domain = data.length === 0 ? fitLogDomain(values) : fitLogDomain(values, 1.15);
  return { domain, drawn: [...own, ...shown], off };
}

/** The caption's sentence for the reference lines not drawn. */
export const offText = (off: readonly (ChartMarker & { side: 'below' | 'above' })[]) =>
  off.length === 0
    ? ''
    : `Not drawn, being far from the dispatches: ${off.map((m) => `${m.name ?? m.label} (${formatMs(m.valueMs)} ms, ${m.side} the chart's range)`).join('; ')}.`;

/**
 * Marker lines first, then their labels on top (haloed in white, so a line never crosses a label);
 * `rows`: how many label rows they take.
 */
export function markerLines(
  markers: readonly ChartMarker[],
  x: (v: number) => number,
): { parts: string[]; rows: number } {
  const xs = markers.map((m) => r1(x(m.valueMs)));
  const texts = markers.map((m) => `${m.label} ${formatMs(m.valueMs)}`);
  const places = placeLabels(xs, texts);
  // Row 0 is the one just above the plot.
  const rowY = (row: number) => M.top - 8 - row * 13;
  const cls = (m: ChartMarker) => `marker ${m.kind}${m.className === undefined ? '' : ` ${m.className}`}`;
  const lines = markers.map(
    (m, i) =>
      `<g class="${cls(m)}"><title>${escapeHtml(texts[i]!)} ms</title><line x1="${xs[i]}" y1="${rowY(places[i]!.row) + 3}" x2="${xs[i]}" y2="${M.top + PLOT_H}"/></g>`,
  );
  const labels = markers.map(
    (m, i) =>
      `<g class="${cls(m)}"><title>${escapeHtml(texts[i]!)} ms</title><text x="${r1(places[i]!.x)}" y="${rowY(places[i]!.row)}" text-anchor="middle">${escapeHtml(texts[i]!)}</text></g>`,
  );
  return { parts: [...lines, ...labels], rows: Math.max(0, ...places.map((p) => p.row + 1)) };
}

export function frame(
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

export const yLabel = (text: string) =>
  `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">${text}</text>`;

/**
 * The chart with its legend under it: the series, then one entry per marker kind and baseline. The
 * label rows the markers do not use are taken out (everything under the title moves up).
 */
export function withLegend(
  label: string,
  body: string[],
  rowsUsed: number,
  items: readonly LegendItem[],
): string {
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

/** What the legend calls the percentile markers without a class of their own (the red ones). */
export interface MarkerText {
  percentile: string;
}

/** One legend entry for the plain percentile markers, and one per marker class (its `legend`). */
export function markerLegend(markers: readonly ChartMarker[], text: MarkerText): LegendItem[] {
  const items: LegendItem[] = [];
  if (markers.some((m) => m.kind === 'percentile' && m.className === undefined))
    items.push({ label: text.percentile, className: 'marker-sample percentile' });
  const seen = new Set<string>();
  for (const m of markers)
    if (m.className !== undefined && !seen.has(m.className)) {
      seen.add(m.className);
      items.push({ label: m.legend ?? m.label, className: `marker-sample ${m.className}` });
    }
  return items;
}
