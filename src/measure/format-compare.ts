// The text form of a comparison: how the runs were measured and under what load, one row per series
// (benchstat-style), why a verdict is inconclusive, the notes, and the outcome with its exit status.
import { BASELINE_LABELS, type BaselineName } from './baselines.js';
import type { CompareResult, SeriesChange } from './compare.js';
import { signed } from './compare.js';
import { floorText, type RunNoise } from './noise-floor.js';
import { type Cell, pValue } from './number-format.js';
import { table } from './text-grid.js';

/** `bench compare` and `bench ab` exit with this when they cannot tell (never 1, which is a regression). */
export const EXIT_INCONCLUSIVE = 3;

export function seriesLabel(s: Pick<SeriesChange, 'kind' | 'id'>): string {
  switch (s.kind) {
    case 'overall':
      return 'dispatch, overall';
    case 'hook':
      return `hook ${s.id}`;
    case 'tenant':
      return `tenant ${s.id}`;
    case 'event':
      return `event ${s.id}`;
    case 'baseline':
      return `baseline: ${BASELINE_LABELS[s.id as BaselineName] ?? s.id}`;
  }
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** One row per series (text and HTML alike): its p50s, its changes, its p-value, its floor. */
export const compareCells = (s: SeriesChange): Cell[] => [
  seriesLabel(s),
  s.base?.p50 ?? null,
  s.new?.p50 ?? null,
  s.change === null ? '—' : signed(s.change.p50),
  s.change === null ? '—' : signed(s.change.p90),
  s.change === null ? '—' : signed(s.change.p99),
  pValue(s.p),
  s.floor === null ? '—' : floorText(s.floor),
];

export const COMPARE_HEAD = ['series', 'p50 base', 'p50 new', 'Δ p50', 'Δ p90', 'Δ p99', 'p-value', 'floor'];

/** A run's conditions in a few words: `CPU wait 31%, steal 0%, load 1.05/CPU`. */
export function conditionsText(r: RunNoise): string {
  const parts =
    r.source === 'measured'
      ? [`CPU wait ${pct(r.cpuWait ?? 0)}`, ...(r.steal === null ? [] : [`steal ${pct(r.steal)}`])]
      : ['CPU wait not recorded'];
  return `${parts.join(', ')}, load ${r.loadPerCpu.toFixed(2)}/CPU`;
}

/** How the runs were compared, in one line. */
export function methodLine(c: CompareResult): string {
  const test =
    c.mode === 'interleaved'
      ? 'Wilcoxon signed-rank over the per-block ratios, blocks paired'
      : 'Mann-Whitney U over per-block medians';
  return `threshold ${(c.threshold * 100).toFixed(1)}%, significance p < ${c.alpha} (${test})${c.normalize ? ", changes divided by each run's baselines" : ', raw (not normalised)'}`;
}

/** The last line: what the comparison decided, and the exit status that goes with it. */
function outcomeLine(c: CompareResult): string {
  const counted = c.series.filter((s) => s.kind !== 'baseline');
  if (c.regression)
    return `REGRESSION: ${counted
      .filter((s) => s.verdict === 'slower')
      .map(seriesLabel)
      .join(', ')} got slower`;
  if (c.inconclusive)
    return `INCONCLUSIVE (exit ${EXIT_INCONCLUSIVE}): ${counted
      .filter((s) => s.verdict === 'inconclusive')
      .map(seriesLabel)
      .join(
        ', ',
      )}: these runs cannot tell a change from their noise; run both on a quiet machine, or alternate them in one window with \`hookwarden bench ab\``;
  return 'no regression';
}

export function formatCompareText(c: CompareResult, baseLabel: string, newLabel: string): string {
  const rows: Cell[][] = [
    [...COMPARE_HEAD, 'verdict'],
    ...c.series.map((s): Cell[] => [...compareCells(s), s.verdict]),
  ];
  const lines = [
    `hookwarden bench ${c.mode === 'interleaved' ? 'ab' : 'compare'}: ${baseLabel} → ${newLabel}${c.mode === 'interleaved' ? ' (blocks alternated in one window)' : ''}`,
    methodLine(c),
    `machine: base ${conditionsText(c.runs.base)}; new ${conditionsText(c.runs.new)}${c.mode === 'separate' ? `; the busier run's floor ${floorText(c.loadFloor)}` : ' (one window: the load falls on both alike)'}`,
  ];
  lines.push('', table(rows));
  const why = c.series.filter((s) => s.reason !== undefined);
  if (why.length > 0) lines.push('', ...why.map((s) => `inconclusive, ${seriesLabel(s)}: ${s.reason}`));
  if (c.notes.length > 0) lines.push('', ...c.notes.map((n) => `note: ${n}`));
  lines.push('', outcomeLine(c));
  return lines.join('\n');
}
