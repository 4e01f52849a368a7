// The percentile plot: latency (log scale) against the percentile on a log "tail" axis, as
// HdrHistogram plots it: x = −log10(1 − q), so p50, p90, p99 and p99.9 sit one step apart instead
// of p90…p99.9 being squeezed into the top tenth of a linear CDF. One line per series (the whole
// dispatch, or each replayed event), each with its own colour, dash and markers (at p50, p90, p99
// and p99.9) and its name at its end; the baselines' medians as horizontal lines of their own style,
// named at their end too; a baseline too far from the data to draw is named plainly in the caption.
import { BASELINE_LABELS, type BaselineName } from './baselines.js';
import type { HistogramBucket } from './histogram.js';
import {
  BASELINE_SHORT,
  baselineClass,
  escapeHtml,
  figure,
  fitLogDomain,
  formatMs,
  type LegendItem,
  legendRows,
  logScale,
  logTicks,
  offChart,
  r1,
  svg,
  W,
} from './report-axes.js';
import {
  type EndLabel,
  endLabels,
  endLabelWidth,
  legendSample,
  lineStyle,
  markerSvg,
  type SeriesLook,
} from './report-series.js';
import { BASELINE_LOOKS } from './report-style.js';

/** One line of the plot. */
export interface PercentileSeries {
  label: string;
  /** The name at the line's end (default: `label`). */
  short?: string;
  buckets: readonly HistogramBucket[];
  look: SeriesLook;
}

const M = { left: 64, top: 34, bottom: 44 };
const PLOT_H = 270;
const MARKED = [0.5, 0.9, 0.99, 0.999];

const nines = (q: number) => -Math.log10(1 - q);

/** Percentile labels of the x axis: p50 and every nine up to the plot's end. */
function xTicks(maxNines: number): [number, string, boolean][] {
  const out: [number, string, boolean][] = [
    [0, 'p0', true],
    [nines(0.5), 'p50', true],
    [nines(0.75), 'p75', false],
  ];
  for (let k = 1; k <= maxNines; k++) {
    const q = 1 - 10 ** -k;
    out.push([k, `p${+(q * 100).toFixed(k)}`, true]);
    if (k < maxNines) out.push([nines(1 - 5 * 10 ** -(k + 1)), '', false]);
  }
  return out;
}

/** The latency at quantile q of a series: the upper edge of the bucket that holds its rank. */
function valueAt(buckets: readonly HistogramBucket[], q: number): number | undefined {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  const rank = Math.max(1, Math.ceil(q * total - 1e-9));
  let seen = 0;
  for (const b of buckets) {
    seen += b.count;
    if (seen >= rank) return b.toMs;
  }
  return buckets.at(-1)?.toMs;
}

/** The step line of one series: each bucket's upper edge from its first to its last percentile. */
function stepPath(
  buckets: readonly HistogramBucket[],
  x: (n: number) => number,
  y: (ms: number) => number,
  maxNines: number,
): string {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  if (total === 0) return '';
  const parts: string[] = [];
  let seen = 0;
  for (const b of buckets) {
    const from = Math.min(maxNines, nines(seen / total));
    seen += b.count;
    const to = seen >= total ? maxNines : Math.min(maxNines, nines(seen / total));
    const py = r1(y(b.toMs));
    parts.push(`${parts.length === 0 ? 'M' : 'L'}${r1(x(from))},${py}`, `L${r1(x(to))},${py}`);
    if (to >= maxNines) break;
  }
  return parts.join(' ');
}

/** Axes, grid and the axis titles. */
function frame(title: string, domain: [number, number], maxNines: number, plotW: number) {
  const x = (n: number) => M.left + (n / maxNines) * plotW;
  const y = logScale(domain, M.top + PLOT_H, M.top);
  const y0 = M.top + PLOT_H;
  const body: string[] = [
    `<text x="${W / 2}" y="18" text-anchor="middle" class="title">${escapeHtml(title)}</text>`,
    `<line x1="${M.left}" y1="${y0}" x2="${M.left + plotW}" y2="${y0}" class="axis"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${y0}" class="axis"/>`,
  ];
  for (const [n, label, major] of xTicks(maxNines)) {
    const px = r1(x(n));
    body.push(
      `<line x1="${px}" y1="${M.top}" x2="${px}" y2="${y0}" class="${major ? 'grid major' : 'grid'}"/>`,
    );
    if (label !== '')
      body.push(
        `<line x1="${px}" y1="${y0}" x2="${px}" y2="${y0 + 5}" class="axis"/>`,
        `<text x="${px}" y="${y0 + 18}" text-anchor="middle">${label}</text>`,
      );
  }
  // Tick labels at least a line apart (the grid lines all stay).
  let lastLabel = Number.POSITIVE_INFINITY;
  for (const t of logTicks(domain)) {
    const py = r1(y(t));
    body.push(`<line x1="${M.left}" y1="${py}" x2="${M.left + plotW}" y2="${py}" class="grid"/>`);
    if (lastLabel - py < 14) continue;
    lastLabel = py;
    body.push(`<text x="${M.left - 8}" y="${r1(py + 4)}" text-anchor="end">${formatMs(t)}</text>`);
  }
  body.push(
    `<text x="${M.left + plotW / 2}" y="${y0 + 36}" text-anchor="middle" class="label">percentile (log scale of the tail: each step is one more nine)</text>`,
    `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">latency (ms, log scale)</text>`,
  );
  return { body, x, y };
}

/**
 * The plot, in a figure with its caption. The tail axis ends at the last percentile the largest
 * series can state: p99.9 for a thousand samples, p99.99 for ten thousand…, at least p99.9.
 */
export function percentileSvg(
  series: readonly PercentileSeries[],
  baselines: readonly { name: BaselineName; p50: number }[],
  title = 'Dispatch latency by percentile',
  caption = '',
): string {
  const count = Math.max(0, ...series.map((s) => s.buckets.reduce((n, b) => n + b.count, 0)));
  const maxNines = Math.max(3, Math.min(5, Math.floor(Math.log10(Math.max(1, count)))));
  const data = series.flatMap((s) => s.buckets.map((b) => b.toMs)).filter((v) => v > 0);
  const { shown, off } = offChart(
    data,
    baselines.map((b) => ({ ...b, valueMs: b.p50 })),
  );
  const domain = fitLogDomain([...data, ...shown.map((b) => b.p50)], 1.15);
  const names = [
    ...series.map((s) => s.short ?? s.label),
    ...shown.map((b) => `${BASELINE_SHORT[b.name]} ${formatMs(b.p50)}`),
  ];
  const labelW = endLabelWidth(names);
  const plotW = W - M.left - labelW - 14;
  const { body, x, y } = frame(title, domain, maxNines, plotW);
  const ends: EndLabel[] = [];
  for (const b of shown) {
    const py = r1(y(b.p50));
    body.push(
      `<line x1="${M.left}" y1="${py}" x2="${M.left + plotW}" y2="${py}" class="${baselineClass(b.name)}"><title>baseline: ${escapeHtml(BASELINE_LABELS[b.name])}, p50 ${formatMs(b.p50)} ms</title></line>`,
    );
    ends.push({
      text: `${BASELINE_SHORT[b.name]} ${formatMs(b.p50)}`,
      x: M.left + plotW,
      y: py,
      look: BASELINE_LOOKS[b.name],
    });
  }
  for (const s of series) {
    body.push(
      `<path d="${stepPath(s.buckets, x, y, maxNines)}" class="pc" style="${lineStyle(s.look)}"><title>${escapeHtml(s.label)}</title></path>`,
    );
    for (const q of MARKED.filter((q) => nines(q) <= maxNines)) {
      const v = valueAt(s.buckets, q);
      if (v !== undefined)
        body.push(
          markerSvg(s.look, x(nines(q)), y(v), 4, `${s.label}: p${+(q * 100).toFixed(1)} ${formatMs(v)} ms`),
        );
    }
    const last = valueAt(s.buckets, 1 - 10 ** -maxNines);
    if (last !== undefined)
      ends.push({ text: s.short ?? s.label, x: M.left + plotW, y: y(last), look: s.look });
  }
  body.push(...endLabels(ends, M.left + plotW + 10, M.top + 4, M.top + PLOT_H, labelW));
  const items: LegendItem[] = [
    ...series.map((s) => ({
      label: s.label,
      sample: (x0: number, y0: number) => legendSample(s.look, x0, y0),
    })),
    ...shown.map((b) => ({
      label: `baseline: ${BASELINE_LABELS[b.name]}, p50 ${formatMs(b.p50)} ms`,
      className: baselineClass(b.name),
    })),
  ];
  const top = M.top + PLOT_H + 46;
  const legend = legendRows(items, M.left, W - 14, top);
  const picture = svg(W, top + legend.height + 4, 'Latency by percentile', [...body, ...legend.parts]);
  const offText = off.map(
    (b) =>
      `baseline ${BASELINE_LABELS[b.name]} (p50 ${formatMs(b.p50)} ms) is ${b.side} the dispatches' range`,
  );
  return figure(
    picture,
    [caption, offText.length === 0 ? '' : `Not drawn: ${offText.join('; ')}.`]
      .filter((t) => t !== '')
      .join(' '),
  );
}
