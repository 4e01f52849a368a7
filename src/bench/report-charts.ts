// The report's other two charts, as inline SVG: where the time goes (a stacked bar per hook and one
// for the whole dispatch: queue, transport, run, fold) and the latency over time (one point per
// block: the dispatch median and p90, and the baselines' medians, so warm-up and drift show).
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, StageSplit } from './bench-result.js';
import { escapeHtml, formatMs } from './report-svg.js';

const W = 760;
const r1 = (v: number) => Math.round(v * 10) / 10;
const svg = (w: number, h: number, label: string, body: string[]) =>
  `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(label)}">${body.join('')}</svg>`;

/** Cuts `text` to about `max` characters with an ellipsis (the whole text goes in a tooltip). */
export function ellipsize(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export const STAGES = [
  { key: 'queueMs', label: 'queue', className: 'st-queue' },
  { key: 'transportMs', label: 'transport', className: 'st-transport' },
  { key: 'runMs', label: 'hook run', className: 'st-run' },
  { key: 'foldMs', label: 'fold & result', className: 'st-fold' },
] as const;

type Row = { label: string; tooltip: string; parts: Partial<Record<(typeof STAGES)[number]['key'], number>> };

/** Horizontal stacked bars, one per row, on a shared linear ms axis. */
export function stageBarsSvg(r: BenchResult): string {
  const o = r.stages.overall;
  const rows: Row[] = [
    { label: 'dispatch (mean)', tooltip: 'whole dispatch, mean', parts: o },
    ...Object.entries(r.stages.perHook).map(([id, s]: [string, StageSplit]) => ({
      label: ellipsize(`hook ${id}`, 22),
      tooltip: `hook ${id} (${r.perHook[id]?.type ?? '?'})`,
      parts: s,
    })),
  ];
  const LEFT = 170;
  const RIGHT = 90;
  const BAR = 22;
  const GAP = 12;
  const TOP = 44;
  const h = TOP + rows.length * (BAR + GAP) + 40;
  const total = (row: Row) => STAGES.reduce((sum, s) => sum + (row.parts[s.key] ?? 0), 0);
  const max = Math.max(1e-6, ...rows.map(total));
  const scale = (W - LEFT - RIGHT) / max;
  const body: string[] = [
    `<text x="${W / 2}" y="16" text-anchor="middle" class="title">Where the time goes (mean ms per dispatch and per hook)</text>`,
  ];
  STAGES.forEach((s, i) => {
    const lx = LEFT + i * 130;
    body.push(
      `<rect x="${lx}" y="26" width="12" height="12" class="${s.className}"/>`,
      `<text x="${lx + 17}" y="36" class="legend">${s.label}</text>`,
    );
  });
  rows.forEach((row, i) => {
    const y = TOP + 8 + i * (BAR + GAP);
    body.push(
      `<text x="${LEFT - 8}" y="${y + BAR / 2 + 4}" text-anchor="end"><title>${escapeHtml(row.tooltip)}</title>${escapeHtml(row.label)}</text>`,
    );
    let x = LEFT;
    for (const s of STAGES) {
      const v = row.parts[s.key];
      if (v === undefined) continue;
      const w = v * scale;
      if (w > 0)
        body.push(
          `<rect x="${r1(x)}" y="${y}" width="${r1(Math.max(0.5, w))}" height="${BAR}" class="${s.className}"><title>${escapeHtml(row.tooltip)}: ${s.label} ${formatMs(v)} ms</title></rect>`,
        );
      x += w;
    }
    body.push(`<text x="${r1(x + 6)}" y="${y + BAR / 2 + 4}">${formatMs(total(row))} ms</text>`);
  });
  return svg(W, h, 'Stage split per dispatch and per hook', body);
}

/** Latency over the run: one point per block (x: time into the run), linear ms axis. */
export function overTimeSvg(r: BenchResult): string {
  const blocks = r.blocks.filter((b) => b.dispatches > 0);
  const H = 250;
  const M = { left: 64, right: 150, top: 34, bottom: 40 };
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const lines = [
    { label: 'dispatch p90', className: 'ot-p90', values: blocks.map((b) => b.overall.p90) },
    { label: 'dispatch p50', className: 'ot-p50', values: blocks.map((b) => b.overall.p50) },
    ...BASELINE_NAMES.map((n) => ({
      label: `${BASELINE_LABELS[n]} p50`,
      className: `ot-base ot-${n}`,
      values: blocks.map((b) => b.baselines[n]),
    })),
  ];
  const endMs = Math.max(1, ...blocks.map((b) => b.atMs + b.durationMs));
  const top = Math.max(1e-6, ...lines.flatMap((l) => l.values));
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (ms: number) => M.left + (ms / endMs) * pw;
  const y = (v: number) => M.top + ph - (v / yMax) * ph;
  const body = [
    `<text x="${W / 2}" y="16" text-anchor="middle" class="title">Latency over the run (median of each block)</text>`,
    `<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" class="axis"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" class="axis"/>`,
    `<text x="${M.left + pw / 2}" y="${H - 6}" text-anchor="middle" class="label">time into the run (s); each point is one block</text>`,
    `<text x="14" y="${M.top + ph / 2}" transform="rotate(-90 14 ${M.top + ph / 2})" text-anchor="middle" class="label">ms</text>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += step)
    body.push(
      `<line x1="${M.left}" y1="${r1(y(v))}" x2="${M.left + pw}" y2="${r1(y(v))}" class="grid"/>`,
      `<text x="${M.left - 8}" y="${r1(y(v) + 4)}" text-anchor="end">${formatMs(v)}</text>`,
    );
  const tStep = niceStep(endMs / 1000) * 1000;
  for (let t = 0; t <= endMs + 1e-9; t += tStep)
    body.push(
      `<text x="${r1(x(t))}" y="${M.top + ph + 16}" text-anchor="middle">${formatMs(t / 1000)}</text>`,
    );
  lines.forEach((l, li) => {
    const pts = blocks.map((b, i) => `${r1(x(b.atMs + b.durationMs / 2))},${r1(y(l.values[i]!))}`);
    body.push(`<polyline points="${pts.join(' ')}" class="${l.className}"/>`);
    for (const [i, b] of blocks.entries())
      body.push(
        `<circle cx="${r1(x(b.atMs + b.durationMs / 2))}" cy="${r1(y(l.values[i]!))}" r="2.5" class="${l.className}"><title>block ${i + 1}: ${escapeHtml(l.label)} ${formatMs(l.values[i]!)} ms</title></circle>`,
      );
    const ly = M.top + 8 + li * 16;
    body.push(
      `<line x1="${M.left + pw + 12}" y1="${ly}" x2="${M.left + pw + 30}" y2="${ly}" class="${l.className}"/>`,
      `<text x="${M.left + pw + 35}" y="${ly + 4}" class="legend"><title>${escapeHtml(l.label)}</title>${escapeHtml(ellipsize(l.label, 20))}</text>`,
    );
  });
  return svg(W, H, 'Latency per block over the run', body);
}

function niceStep(max: number): number {
  const raw = Math.max(max, 1e-9) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}
