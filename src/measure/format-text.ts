// The human-readable form of a BenchResult: what `hookwarden bench` prints without --json.

import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult, HookRatios, LatencySummary, OverallRatios } from './bench-result.js';
import { sessionLines } from './format-sections.js';
import { type Cell, int, times } from './number-format.js';
import { describeConditions } from './run-conditions.js';
import { eventRows, failureRows, isolationRows, LATENCY_HEAD, latencyCells } from './section-rows.js';
import { table } from './text-grid.js';
import { SECURITY } from './warnings.js';

const latencyRow = (label: string, s: LatencySummary): Cell[] => [label, ...latencyCells(s)];

export interface TextOptions {
  /** ANSI colour: security failures in red (on a terminal). Default false. */
  color?: boolean;
}

const red = (text: string, on: boolean) => (on ? `\u001b[31;1m${text}\u001b[0m` : text);

export function formatBenchText(r: BenchResult, options: TextOptions = {}): string {
  const color = options.color === true;
  const rows: Cell[][] = [
    ['latency (ms)', ...LATENCY_HEAD],
    latencyRow('dispatch, overall', r.overall),
    ...Object.entries(r.perHook).map(([id, h]) => latencyRow(`hook ${id} (${h.type})`, h)),
    ...Object.entries(r.perTenant ?? {}).map(([id, t]) => latencyRow(`tenant ${id}`, t)),
    ...BASELINE_NAMES.map((b) => latencyRow(`baseline: ${BASELINE_LABELS[b]}`, r.baselines[b])),
  ];
  const ratioRow = (label: string, q: HookRatios & Partial<OverallRatios>): Cell[] => [
    label,
    ...[q.vsPiscinaEcho, q.vsSpawnTrue, q.vsQuickJsEval, q.vsEchoPlusEval].map(times),
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
  const stageRow = (label: string, q: number, t: number, run: number, fold?: number): Cell[] => [
    label,
    q,
    t,
    run,
    fold === undefined ? '' : fold,
    q + t + run + (fold ?? 0),
  ];
  const stages = [
    ['stages (mean ms)', 'queue', 'spawn/isolate', 'hook run', 'fold & result', 'total'],
    stageRow('dispatch, overall', o.queueMs, o.transportMs, o.runMs, o.foldMs),
    ...Object.entries(r.stages.perHook).map(([id, s]) =>
      stageRow(`hook ${id}`, s.queueMs, s.transportMs, s.runMs),
    ),
  ];
  const m = r.machine;
  const h = r.hookwarden;
  const security = r.warnings.filter((w) => w.startsWith(SECURITY));
  const what =
    r.replay === undefined
      ? r.event
      : `replay of ${r.replay.source} (${int(r.replay.events)} events, ${r.replay.sessions} session${r.replay.sessions === 1 ? '' : 's'}, ${int(r.replay.passes)} pass${r.replay.passes === 1 ? '' : 'es'})`;
  const sections: string[][] = [
    [
      `hookwarden bench: ${what} — ${int(r.iterations)} dispatches (after ${int(r.warmup)} warm-up), concurrency ${r.concurrency}, ${r.tenants} tenant${r.tenants === 1 ? '' : 's'}`,
      `throughput: ${int(r.throughputPerSec)} dispatches/s (${(r.durationMs / 1000).toFixed(2)} s of dispatching)`,
      ...security.map((w) =>
        red(w.toUpperCase().slice(0, SECURITY.length) + w.slice(SECURITY.length), color),
      ),
    ],
    [table(rows)],
  ];
  if (r.perEvent !== undefined && (r.replay !== undefined || Object.keys(r.perEvent).length > 1))
    sections.push([table(eventRows(r.perEvent, 'per event (ms)'))]);
  if (r.session !== undefined) sections.push(sessionLines(r.session));
  const failures = failureRows(r.perHook);
  if (failures !== undefined) sections.push([table(failures.rows)]);
  if (r.isolation !== undefined) sections.push([table(isolationRows(r.isolation, 'isolation (ms)'))]);
  sections.push([table(ratios)], [table(stages)]);
  sections.push([
    `verdicts: ${counts(r.decisions)}`,
    `hook failures: ${counts(r.errors)}`,
    `machine: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${m.platform}/${m.arch}, load ${m.loadAverage.join(' ')}`,
    ...(r.conditions === undefined ? [] : [`while measured: ${describeConditions(r.conditions)}`]),
    `hookwarden ${h.version}${h.commit === null ? '' : ` (${h.commit.slice(0, 12)}${h.dirty === true ? ', uncommitted changes' : ''})`}`,
    ...r.warnings.filter((w) => !w.startsWith(SECURITY)).map((w) => `warning: ${w}`),
  ]);
  return sections.map((s) => s.join('\n')).join('\n\n');
}
