// The human-readable form of a BenchResult: what `hookwarden bench` prints without --json.
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, HookRatios, LatencySummary, OverallRatios } from './bench-result.js';

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const msCell = (v: number) => (v >= 100 ? v.toFixed(1) : v.toFixed(3));
const ratioCell = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${v.toFixed(2)}×`;

export function grid(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
    )
    .join('\n');
}

const latencyRow = (label: string, s: LatencySummary) => [
  label,
  int(s.count),
  ...[s.p50, s.p90, s.p99, s.p999, s.max, s.mean].map(msCell),
];

export function formatBenchText(r: BenchResult): string {
  const rows = [
    ['latency (ms)', 'count', 'p50', 'p90', 'p99', 'p99.9', 'max', 'mean'],
    latencyRow('dispatch, overall', r.overall),
    ...Object.entries(r.perHook).map(([id, h]) => latencyRow(`hook ${id} (${h.type})`, h)),
    ...Object.entries(r.perTenant ?? {}).map(([id, t]) => latencyRow(`tenant ${id}`, t)),
    ...BASELINE_NAMES.map((b) => latencyRow(`baseline: ${BASELINE_LABELS[b]}`, r.baselines[b])),
  ];
  const ratioRow = (label: string, q: HookRatios & Partial<OverallRatios>) => [
    label,
    ...[q.vsPiscinaEcho, q.vsSpawnTrue, q.vsQuickJsEval, q.vsEchoPlusEval].map(ratioCell),
  ];
  const ratios = [
    ['p50 ÷ baseline p50', '÷ echo', '÷ spawn', '÷ eval', '÷ echo+eval'],
    ratioRow('dispatch, overall', r.ratios.overall),
    ...Object.entries(r.ratios.perHook).map(([id, q]) => ratioRow(`hook ${id}`, q)),
  ];
  const counts = (c: Record<string, number | undefined>) =>
    Object.entries(c)
      .map(([k, v]) => `${k} ${int(v ?? 0)}`)
      .join(', ') || 'none';
  const o = r.stages.overall;
  const stageRow = (label: string, q: number, t: number, run: number, fold?: number) => [
    label,
    ...[q, t, run].map(msCell),
    fold === undefined ? '' : msCell(fold),
    msCell(q + t + run + (fold ?? 0)),
  ];
  const stages = [
    ['stages (mean ms)', 'queue', 'transport', 'hook run', 'fold & result', 'total'],
    stageRow('dispatch, overall', o.queueMs, o.transportMs, o.runMs, o.foldMs),
    ...Object.entries(r.stages.perHook).map(([id, s]) =>
      stageRow(`hook ${id}`, s.queueMs, s.transportMs, s.runMs),
    ),
  ];
  const m = r.machine;
  const h = r.hookwarden;
  return [
    `hookwarden bench: ${r.event} — ${int(r.iterations)} dispatches (after ${int(r.warmup)} warm-up), concurrency ${r.concurrency}, ${r.tenants} tenant${r.tenants === 1 ? '' : 's'}`,
    `throughput: ${int(r.throughputPerSec)} dispatches/s (${(r.durationMs / 1000).toFixed(2)} s of dispatching)`,
    '',
    grid(rows),
    '',
    grid(ratios),
    '',
    grid(stages),
    '',
    `verdicts: ${counts(r.decisions)}`,
    `hook failures: ${counts(r.errors)}`,
    `machine: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${m.platform}/${m.arch}, load ${m.loadAverage.join(' ')}`,
    `hookwarden ${h.version}${h.commit === null ? '' : ` (${h.commit.slice(0, 12)}${h.dirty === true ? ', uncommitted changes' : ''})`}`,
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}
