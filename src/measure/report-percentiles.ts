// The percentile plot: latency (log scale) against the percentile on a log "tail" axis, as
// HdrHistogram plots it: x = −log10(1 − q), so p50, p90, p99 and p99.9 sit one step apart instead
// of p90…p99.9 being squeezed into the top tenth of a linear CDF. One line per series (the whole
// dispatch, or each replayed event), the baselines' medians as horizontal lines of their own style,
// and a legend under the plot that names every line in full.
import type { BaselineName } from './baselines.js';
import type { HistogramBucket } from './histogram.js';
import {
  baselineClass,
  baselineLegend,
  escapeHtml,
  fitLogDomain,
  formatMs,
  type LegendItem,
  legendRows,
  logScale,
  logTicks,
  r1,
  svg,
  W,
} from './report-axes.js';

/** One line of the plot. */
export interface PercentileSeries {
  label: string;
  buckets: readonly HistogramBucket[];
  /** CSS class of its line (`pc-0`…`pc-9` colours, `pc-main` for the whole dispatch). */
  className: string;
}

const M = { left: 64, right: 24, top: 34, bottom: 44 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = 250;

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

/**
 * The plot. `count`: samples of the largest series (the tail axis ends at the last percentile it
 * can state: p99.9 for a thousand, p99.99 for ten thousand…, at least p99.9).
 */
export function percentileSvg(
  series: readonly PercentileSeries[],
  baselines: readonly { name: BaselineName; p50: number }[],
  title = 'Dispatch latency by percentile',
): string {
  const count = Math.max(0, ...series.map((s) => s.buckets.reduce((n, b) => n + b.count, 0)));
  const maxNines = Math.max(3, Math.min(5, Math.floor(Math.log10(Math.max(1, count)))));
  const data = series.flatMap((s) => s.buckets.map((b) => b.toMs));
  const lo = Math.min(...data.filter((v) => v > 0));
  const hi = Math.max(0, ...data);
  const near = baselines
    .map((b) => b.p50)
    .filter((v) => v > 0 && (data.length === 0 || (v >= lo / 3 && v <= hi * 3)));
  const domain = fitLogDomain([...data, ...near], 1.15);
  const x = (n: number) => M.left + (n / maxNines) * PLOT_W;
  const y = logScale(domain, M.top + PLOT_H, M.top);
  const y0 = M.top + PLOT_H;
  const body: string[] = [
    `<text x="${W / 2}" y="18" text-anchor="middle" class="title">${escapeHtml(title)}</text>`,
    `<line x1="${M.left}" y1="${y0}" x2="${M.left + PLOT_W}" y2="${y0}" class="axis"/>`,
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
    body.push(`<line x1="${M.left}" y1="${py}" x2="${M.left + PLOT_W}" y2="${py}" class="grid"/>`);
    if (lastLabel - py < 14) continue;
    lastLabel = py;
    body.push(`<text x="${M.left - 8}" y="${r1(py + 4)}" text-anchor="end">${formatMs(t)}</text>`);
  }
  body.push(
    `<text x="${M.left + PLOT_W / 2}" y="${y0 + 36}" text-anchor="middle" class="label">percentile (log scale of the tail: each step is one more nine)</text>`,
    `<text x="14" y="${M.top + PLOT_H / 2}" transform="rotate(-90 14 ${M.top + PLOT_H / 2})" text-anchor="middle" class="label">latency (ms, log scale)</text>`,
  );
  for (const b of baselines) {
    if (!(b.p50 >= domain[0] && b.p50 <= domain[1])) continue;
    const py = r1(y(b.p50));
    body.push(
      `<line x1="${M.left}" y1="${py}" x2="${M.left + PLOT_W}" y2="${py}" class="${baselineClass(b.name)}"><title>${escapeHtml(baselineLegend(b.name))} p50 ${formatMs(b.p50)} ms</title></line>`,
    );
  }
  for (const s of series)
    body.push(
      `<path d="${stepPath(s.buckets, x, y, maxNines)}" class="pc ${s.className}"><title>${escapeHtml(s.label)}</title></path>`,
    );
  const items: LegendItem[] = [
    ...series.map((s) => ({ label: s.label, className: `pc ${s.className}` })),
    ...baselines
      .filter((b) => b.p50 >= domain[0] && b.p50 <= domain[1])
      .map((b) => ({
        label: `${baselineLegend(b.name)}, p50 ${formatMs(b.p50)} ms`,
        className: baselineClass(b.name),
      })),
  ];
  const top = y0 + 46;
  const legend = legendRows(items, M.left, W - M.right, top);
  return svg(W, top + legend.height + 4, 'Latency by percentile', [...body, ...legend.parts]);
}
