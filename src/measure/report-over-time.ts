// Latency over the run, as inline SVG: one point per block at its time into the run, for the
// dispatch p50 and p90 and each baseline's median, each line with its own colour or grey, dash and
// marker and its name at its end; under the plot, the share of each block the bench's main thread
// waited for a CPU, so that a busy stretch of the machine shows beside what it did to the figures.
import { BASELINE_NAMES } from './baselines.js';
import type { BenchResult } from './bench-result.js';
import {
  BASELINE_SHORT,
  baselineLegend,
  escapeHtml,
  figure,
  formatMs,
  legendRows,
  niceStep,
  r1,
  svg,
  W,
} from './report-axes.js';
import {
  type EndLabel,
  endLabels,
  legendSample,
  lineStyle,
  markerSvg,
  type SeriesLook,
} from './report-series.js';
import { BASELINE_LOOKS } from './report-style.js';

const P50: SeriesLook = {
  colour: '#0072B2',
  ink: '#0072B2',
  dash: '',
  marker: 'circle',
  filled: true,
  width: 2,
  words: 'blue solid, circles',
};
const P90: SeriesLook = {
  colour: '#56B4E9',
  ink: '#2B82B8',
  dash: '7 3',
  marker: 'triangle',
  filled: true,
  width: 1.8,
  words: 'sky blue dashed, triangles',
};

const M = { left: 64, right: 110, top: 34 };
const PH = 220;
const WAIT_H = 34;

interface Line {
  label: string;
  short: string;
  look: SeriesLook;
  values: number[];
}

/**
 * The CPU-wait strip under the plot: a grey bar per block, from 0 (nothing) to the band's full
 * height (the whole block spent waiting), each as wide as its block's share of the run allows.
 */
function waitStrip(blocks: BenchResult['blocks'], x: (ms: number) => number, top: number): string[] {
  const out = [
    `<rect x="${M.left}" y="${top}" width="${W - M.left - M.right}" height="${WAIT_H}" class="wait-band"/>`,
    `<text x="${M.left - 8}" y="${top + WAIT_H / 2 - 2}" text-anchor="end" class="label">CPU wait</text>`,
    `<text x="${M.left - 8}" y="${top + WAIT_H / 2 + 11}" text-anchor="end" class="label">0–100%</text>`,
  ];
  const centres = blocks.map((b) => x(b.atMs + b.durationMs / 2));
  for (const [i, b] of blocks.entries()) {
    const gap = Math.min(
      i > 0 ? centres[i]! - centres[i - 1]! : Number.POSITIVE_INFINITY,
      i < blocks.length - 1 ? centres[i + 1]! - centres[i]! : Number.POSITIVE_INFINITY,
    );
    const w = Math.max(1.5, Math.min(x(b.atMs + b.durationMs) - x(b.atMs), gap * 0.8, 40));
    const v = b.cpuWait ?? 0;
    const h = Math.max(0.5, v * WAIT_H);
    out.push(
      `<rect x="${r1(centres[i]! - w / 2)}" y="${r1(top + WAIT_H - h)}" width="${r1(w)}" height="${r1(h)}" class="wait"><title>block ${i + 1}: the main thread waited for a CPU ${Math.round(v * 100)}% of the block</title></rect>`,
    );
  }
  return out;
}

/** Latency over the run: one point per block (x: time into the run), linear ms axis; in a figure. */
export function overTimeSvg(r: BenchResult): string {
  const blocks = r.blocks.filter((b) => b.dispatches > 0);
  const pw = W - M.left - M.right;
  const lines: Line[] = [
    { label: 'dispatch p90', short: 'p90', look: P90, values: blocks.map((b) => b.overall.p90) },
    { label: 'dispatch p50', short: 'p50', look: P50, values: blocks.map((b) => b.overall.p50) },
    ...BASELINE_NAMES.map((n) => ({
      label: baselineLegend(n, ', p50'),
      short: BASELINE_SHORT[n],
      look: BASELINE_LOOKS[n],
      values: blocks.map((b) => b.baselines[n]),
    })),
  ];
  const endMs = Math.max(1, ...blocks.map((b) => b.atMs + b.durationMs));
  const top = Math.max(1e-6, ...lines.flatMap((l) => l.values));
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (ms: number) => M.left + (ms / endMs) * pw;
  const y = (v: number) => M.top + PH - (v / yMax) * PH;
  const withWait = blocks.some((b) => b.cpuWait !== undefined);
  const axisY = M.top + PH + (withWait ? WAIT_H + 14 : 0);
  const body = [
    `<text x="${W / 2}" y="16" text-anchor="middle" class="title">Latency over the run (median of each block)</text>`,
    `<line x1="${M.left}" y1="${M.top + PH}" x2="${M.left + pw}" y2="${M.top + PH}" class="axis"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + PH}" class="axis"/>`,
    `<text x="${M.left + pw / 2}" y="${axisY + 34}" text-anchor="middle" class="label">time into the run (s); each point is one block</text>`,
    `<text x="14" y="${M.top + PH / 2}" transform="rotate(-90 14 ${M.top + PH / 2})" text-anchor="middle" class="label">ms</text>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += step)
    body.push(
      `<line x1="${M.left}" y1="${r1(y(v))}" x2="${M.left + pw}" y2="${r1(y(v))}" class="grid"/>`,
      `<text x="${M.left - 8}" y="${r1(y(v) + 4)}" text-anchor="end">${formatMs(v)}</text>`,
    );
  const tStep = niceStep(endMs / 1000) * 1000;
  for (let t = 0; t <= endMs + 1e-9; t += tStep)
    body.push(`<text x="${r1(x(t))}" y="${axisY + 16}" text-anchor="middle">${formatMs(t / 1000)}</text>`);
  if (withWait) body.push(...waitStrip(blocks, x, M.top + PH + 10));
  const ends: EndLabel[] = [];
  for (const l of lines) {
    const pts = blocks.map((b, i) => [x(b.atMs + b.durationMs / 2), y(l.values[i]!)] as const);
    body.push(
      `<polyline points="${pts.map(([a, b]) => `${r1(a)},${r1(b)}`).join(' ')}" class="ot" style="${lineStyle(l.look)}"/>`,
    );
    for (const [i, [px, py]] of pts.entries())
      body.push(markerSvg(l.look, px, py, 2.8, `block ${i + 1}: ${l.label} ${formatMs(l.values[i]!)} ms`));
    const last = pts.at(-1);
    if (last !== undefined) ends.push({ text: l.short, x: last[0], y: last[1], look: l.look });
  }
  body.push(...endLabels(ends, M.left + pw + 10, M.top + 4, M.top + PH, M.right - 14));
  const legend = legendRows(
    lines.map((l) => ({ label: l.label, sample: (x0: number, y0: number) => legendSample(l.look, x0, y0) })),
    M.left,
    W - 14,
    axisY + 44,
  );
  const picture = svg(W, axisY + 44 + legend.height + 4, 'Latency per block over the run', [
    ...body,
    ...legend.parts,
  ]);
  return figure(picture, overTimeCaption(withWait));
}

function overTimeCaption(withWait: boolean): string {
  const baselines = BASELINE_NAMES.map((n) => `${BASELINE_SHORT[n]} ${BASELINE_LOOKS[n].words}`).join(', ');
  return `One point per block, in run order: the dispatch p50 (${P50.words}) and p90 (${P90.words}), and each baseline's median (${escapeHtml(baselines)}), each line named at its end. A first point far above the rest is warm-up; a slope is drift; baselines that move with the dispatches mean the machine changed, not hookwarden.${withWait ? " The grey strip under the plot is each block's CPU wait: the share of the block the bench's main thread spent ready to run but waiting for a CPU (a full bar is the whole block); tall bars are a busy machine, and the points above them are partly its doing." : ''}`;
}
