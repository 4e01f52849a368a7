// The report's bar charts, as inline SVG: where the time goes (a stacked bar per row — the
// dispatch and each hook, or a session's cost — with a value axis and each stage's value on its
// segment, the total after the bar).
import type { BenchResult, StageSplit } from './bench-result.js';
import { escapeHtml, formatMs, legendRows, niceStep, r1, svg, textWidth, W } from './report-axes.js';

const STAGES = [
  { key: 'queueMs', label: 'queue', className: 'st-queue' },
  { key: 'transportMs', label: 'spawn / isolate', className: 'st-transport' },
  { key: 'runMs', label: 'hook run', className: 'st-run' },
  { key: 'foldMs', label: 'fold & result', className: 'st-fold' },
] as const;

type StageKey = (typeof STAGES)[number]['key'];

/** One bar: its label (in full, wrapped when long), its tooltip, and its parts. */
export interface BarRow {
  label: string;
  tooltip: string;
  parts: Partial<Record<StageKey, number>>;
}

/** Lines of at most `max` characters, broken after `-`, `/`, `_`, `.` or a space where one is near. */
function wrap(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while ([...rest].length > max) {
    const head = rest.slice(0, max);
    const cut = Math.max(...['-', '/', '_', '.', ' ', ':'].map((c) => head.lastIndexOf(c)));
    const at = cut >= max / 2 ? cut + 1 : max;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}

/**
 * Horizontal stacked bars on a shared linear axis (`unit`: ms or s), one per row, each segment
 * with its value when it is wide enough for it, the total after the bar.
 */
export function stackedBarsSvg(
  title: string,
  rows: readonly BarRow[],
  unit: 'ms' | 's',
  axisLabel: string,
): string {
  const k = unit === 's' ? 1 / 1000 : 1;
  const fmt = (v: number) => (unit === 's' ? `${+(v * k).toPrecision(3)} s` : `${formatMs(v)} ms`);
  const MAX_CHARS = 34;
  const lines = rows.map((r) => wrap(r.label, MAX_CHARS));
  const LEFT = Math.min(
    16 + textWidth('x'.repeat(MAX_CHARS)),
    16 + Math.max(textWidth('dispatch (mean)'), ...lines.flat().map((l) => textWidth(l))),
  );
  const RIGHT = 80;
  const GAP = 12;
  const TOP = 30;
  const heights = lines.map((l) => Math.max(22, l.length * 13 + 6));
  const total = (row: BarRow) => STAGES.reduce((sum, s) => sum + (row.parts[s.key] ?? 0), 0);
  const top = Math.max(1e-9, ...rows.map(total));
  const step = niceStep(top, 5);
  const max = Math.ceil(top / step) * step;
  const scale = (W - LEFT - RIGHT) / max;
  const plotBottom = TOP + heights.reduce((a, h) => a + h + GAP, 0);
  const body: string[] = [
    `<text x="${W / 2}" y="16" text-anchor="middle" class="title">${escapeHtml(title)}</text>`,
  ];
  // The value axis: grid lines, ticks and labels, under the bars.
  for (let v = 0; v <= max + step / 1000; v += step) {
    const px = r1(LEFT + v * scale);
    body.push(
      `<line x1="${px}" y1="${TOP}" x2="${px}" y2="${plotBottom}" class="grid"/>`,
      `<line x1="${px}" y1="${plotBottom}" x2="${px}" y2="${plotBottom + 5}" class="axis"/>`,
      `<text x="${px}" y="${plotBottom + 18}" text-anchor="middle">${unit === 's' ? +(v * k).toPrecision(3) : formatMs(v)}</text>`,
    );
  }
  body.push(
    `<line x1="${LEFT}" y1="${plotBottom}" x2="${W - RIGHT}" y2="${plotBottom}" class="axis"/>`,
    `<text x="${r1(LEFT + (W - LEFT - RIGHT) / 2)}" y="${plotBottom + 34}" text-anchor="middle" class="label">${escapeHtml(axisLabel)}</text>`,
  );
  let y = TOP + GAP / 2;
  rows.forEach((row, i) => {
    const h = heights[i]!;
    const ls = lines[i]!;
    const ty = y + h / 2 - ((ls.length - 1) * 13) / 2 + 4;
    body.push(
      `<text x="${LEFT - 8}" y="${r1(ty)}" text-anchor="end"><title>${escapeHtml(row.tooltip)}</title>${ls
        .map((l, j) => `<tspan x="${LEFT - 8}" dy="${j === 0 ? 0 : 13}">${escapeHtml(l)}</tspan>`)
        .join('')}</text>`,
    );
    let x = LEFT;
    for (const s of STAGES) {
      const v = row.parts[s.key];
      if (v === undefined) continue;
      const w = v * scale;
      if (w > 0) {
        body.push(
          `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(Math.max(0.5, w))}" height="${h}" class="${s.className}"><title>${escapeHtml(row.tooltip)}: ${s.label} ${fmt(v)}</title></rect>`,
        );
        const text = unit === 's' ? `${+(v * k).toPrecision(2)}` : formatMs(+v.toPrecision(2));
        if (w >= textWidth(text) + 2)
          body.push(
            `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2 + 4)}" text-anchor="middle" class="on-bar">${text}</text>`,
          );
      }
      x += w;
    }
    body.push(`<text x="${r1(x + 6)}" y="${r1(y + h / 2 + 4)}">${fmt(total(row))}</text>`);
    y += h + GAP;
  });
  const legend = legendRows(
    STAGES.map((s) => ({ label: s.label, className: s.className, swatch: true })),
    LEFT,
    W - 8,
    plotBottom + 44,
  );
  return svg(W, plotBottom + 44 + legend.height + 4, title, [...body, ...legend.parts]);
}

/** The stage split: one bar for the dispatch (mean), one per hook. */
export function stageBarsSvg(r: BenchResult): string {
  const rows: BarRow[] = [
    { label: 'dispatch (mean)', tooltip: 'whole dispatch, mean', parts: r.stages.overall },
    ...Object.entries(r.stages.perHook).map(([id, s]: [string, StageSplit]) => ({
      label: `hook ${id}`,
      tooltip: `hook ${id} (${r.perHook[id]?.type ?? '?'})`,
      parts: s,
    })),
  ];
  return stackedBarsSvg(
    'Where the time goes (mean per dispatch and per hook)',
    rows,
    'ms',
    'ms, mean per dispatch',
  );
}
