// The text form of a comparison: one row per series, benchstat-style.
import { BASELINE_LABELS, type BaselineName } from './baselines.js';
import type { CompareResult, SeriesChange } from './compare.js';
import { signed } from './compare.js';
import { type Cell, pValue } from './number-format.js';
import { table } from './text-grid.js';

function seriesLabel(s: Pick<SeriesChange, 'kind' | 'id'>): string {
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

/** One row per series (text and HTML alike): its p50s, its changes, its p-value; the verdict apart. */
export const compareCells = (s: SeriesChange): Cell[] => [
  seriesLabel(s),
  s.base?.p50 ?? null,
  s.new?.p50 ?? null,
  s.change === null ? '—' : signed(s.change.p50),
  s.change === null ? '—' : signed(s.change.p90),
  s.change === null ? '—' : signed(s.change.p99),
  pValue(s.p),
];

export function formatCompareText(c: CompareResult, baseLabel: string, newLabel: string): string {
  const rows: Cell[][] = [
    ['series', 'p50 base', 'p50 new', 'Δ p50', 'Δ p90', 'Δ p99', 'p-value', 'verdict'],
    ...c.series.map((s): Cell[] => [...compareCells(s), s.verdict]),
  ];
  const lines = [
    `hookwarden bench compare: ${baseLabel} → ${newLabel}`,
    `threshold ${(c.threshold * 100).toFixed(1)}%, significance p < ${c.alpha} (Mann-Whitney U over per-block medians)${c.normalize ? ", changes divided by each run's baselines" : ', raw (not normalised)'}`,
    '',
    table(rows),
  ];
  if (c.notes.length > 0) lines.push('', ...c.notes.map((n) => `note: ${n}`));
  lines.push(
    '',
    c.regression
      ? `REGRESSION: ${c.series
          .filter((s) => s.kind !== 'baseline' && s.verdict === 'slower')
          .map(seriesLabel)
          .join(', ')} got slower`
      : 'no regression',
  );
  return lines.join('\n');
}
