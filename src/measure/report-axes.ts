// What the report's charts share: escaping, latency labels, logarithmic axes fitted to the data,
// tick choice that never crowds labels, legends laid out in rows that are never cut, and the
// classes that tell the baselines apart (each its own colour and dash, in every chart).
import { BASELINE_LABELS, type BaselineName } from './baselines.js';

/** Width of every chart's viewBox; the page draws it across its whole width. */
export const W = 1000;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A latency for an axis label: `0.25`, `3.2`, `150`, `2 s`. */
export function formatMs(v: number): string {
  if (v >= 1000) return `${+(v / 1000).toPrecision(3)} s`;
  return String(+v.toPrecision(3));
}

export const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Width of a text at the charts' 11 px font, generously: wide enough for system-ui's widest
 * common glyphs, so that a legend laid out with it is never cut.
 */
export const textWidth = (text: string, px = 11) => [...text].length * px * 0.6 + 4;

export const svg = (w: number, h: number, label: string, body: readonly string[]) =>
  `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(label)}">${body.join('')}</svg>`;

/**
 * A logarithmic domain around `values` (positive ones), padded by `pad` on each side and at least a
 * factor of 4 wide: the data fill the plot instead of a few whole decades.
 */
export function fitLogDomain(values: readonly number[], pad = 1.25): [number, number] {
  const v = values.filter((x) => Number.isFinite(x) && x > 0);
  if (v.length === 0) return [0.1, 10];
  let lo = Math.min(...v) / pad;
  let hi = Math.max(...v) * pad;
  if (hi / lo < 4) {
    const mid = Math.sqrt(lo * hi);
    lo = mid / 2;
    hi = mid * 2;
  }
  return [lo, hi];
}

export function logScale([lo, hi]: [number, number], from: number, to: number): (v: number) => number {
  const a = Math.log10(lo);
  const span = Math.log10(hi) - a;
  return (v) => from + ((Math.log10(Math.min(Math.max(v, lo), hi)) - a) / span) * (to - from);
}

const MANTISSAS: readonly (readonly number[])[] = [
  [1],
  [1, 2, 5],
  [1, 2, 3, 5, 7],
  [1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9],
];

/** Round ticks inside a log domain: the sparsest 1-2-5 family that gives at least four, at most twelve. */
export function logTicks([lo, hi]: [number, number]): number[] {
  let best: number[] = [];
  for (const ms of MANTISSAS) {
    const ticks: number[] = [];
    for (let d = Math.floor(Math.log10(lo)); d <= Math.ceil(Math.log10(hi)); d++)
      for (const m of ms) {
        const v = +(m * 10 ** d).toPrecision(3);
        if (v >= lo && v <= hi) ticks.push(v);
      }
    if (ticks.length > 12) continue;
    best = ticks;
    if (ticks.length >= 4) return ticks;
  }
  return best.length > 0 ? best : [+lo.toPrecision(2), +hi.toPrecision(2)];
}

/** A round step for about `n` ticks from 0 to `max`. */
export function niceStep(max: number, n = 4): number {
  const raw = Math.max(max, 1e-9) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Which tick labels to draw so that none overlaps the one before (the grid lines all stay). */
export function spacedLabels(xs: readonly number[], texts: readonly string[]): boolean[] {
  let end = Number.NEGATIVE_INFINITY;
  return xs.map((x, i) => {
    const w = textWidth(texts[i]!);
    if (x - w / 2 < end + 4) return false;
    end = x + w / 2;
    return true;
  });
}

/** One entry of a legend: its text and the sample drawn before it (a line, a swatch). */
export interface LegendItem {
  readonly label: string;
  /** CSS class of the sample; `swatch` items are filled squares, the others line samples. */
  readonly className?: string;
  readonly swatch?: boolean;
  /** Draws the sample itself, from (x, y) over SAMPLE px (a styled line with its marker). */
  readonly sample?: (x: number, y: number) => string;
}

const SAMPLE = 26;

/**
 * A legend in rows from `top`, wrapped within [left, right], each text in full. Returns the SVG
 * and the height it takes.
 */
export function legendRows(
  items: readonly LegendItem[],
  left: number,
  right: number,
  top: number,
): { parts: string[]; height: number } {
  const parts: string[] = [];
  let x = left;
  let row = 0;
  const ROW = 17;
  for (const item of items) {
    const w = SAMPLE + 6 + textWidth(item.label) + 16;
    if (x > left && x + w > right) {
      x = left;
      row++;
    }
    const y = top + row * ROW + 9;
    parts.push(
      item.sample !== undefined
        ? item.sample(x, y)
        : item.swatch === true
          ? `<rect x="${r1(x)}" y="${y - 6}" width="12" height="12" class="${item.className ?? ''}"/>`
          : `<line x1="${r1(x)}" y1="${y}" x2="${r1(x + SAMPLE)}" y2="${y}" class="${item.className ?? ''}"/>`,
      `<text x="${r1(x + (item.swatch === true ? 17 : SAMPLE + 6))}" y="${y + 4}" class="legend">${escapeHtml(item.label)}</text>`,
    );
    x += item.swatch === true ? 17 + textWidth(item.label) + 16 : w;
  }
  return { parts, height: items.length === 0 ? 0 : (row + 1) * ROW + 4 };
}

/** The CSS class of a baseline's lines and markers (report-style.ts gives each its colour and dash). */
export const baselineClass = (name: BaselineName) => `bl bl-${name}`;

/** The short names the charts label baselines with; the legend gives the full ones. */
export const BASELINE_SHORT: Readonly<Record<BaselineName, string>> = {
  piscinaEcho: 'echo',
  spawnTrue: 'spawn',
  quickJsEval: 'eval',
};

export const baselineLegend = (name: BaselineName, suffix = '') =>
  `baseline: ${BASELINE_LABELS[name]}${suffix}`;

/** A chart and its caption, which says what the chart shows and how its lines are told apart. */
export const figure = (picture: string, caption: string) =>
  `<figure class="chart">${picture}${caption === '' ? '' : `<figcaption>${caption}</figcaption>`}</figure>`;

/** How far outside the data's range a reference line may be and still be drawn (the axis grows). */
const NEAR = 10;

/**
 * Reference values (baselines) split into those drawn (within a factor of NEAR of the data's range:
 * the axis is stretched to hold them) and those named plainly instead, with the side they are on.
 */
export function offChart<T extends { valueMs: number }>(
  data: readonly number[],
  refs: readonly T[],
): { shown: T[]; off: (T & { side: 'below' | 'above' })[] } {
  const values = data.filter((v) => v > 0);
  const positive = refs.filter((r) => r.valueMs > 0);
  if (values.length === 0) return { shown: positive, off: [] };
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const shown = positive.filter((r) => r.valueMs >= lo / NEAR && r.valueMs <= hi * NEAR);
  const off = positive
    .filter((r) => !shown.includes(r))
    .map((r) => ({ ...r, side: r.valueMs < lo ? ('below' as const) : ('above' as const) }));
  return { shown, off };
}
