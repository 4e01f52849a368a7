// A complete schema-2 BenchResult built in memory, for tests of the report, compare and loading.
import type { BaselineName } from '../../src/measure/baselines.js';
import type { BlockSummary } from '../../src/measure/bench-result.js';
import { type BenchResult, Histogram, type LatencySummary } from '../../src/measure/index.js';
import type { RunConditions } from '../../src/measure/run-conditions.js';

export const lat = (p50: number, count = 10): LatencySummary => ({
  count,
  p50,
  p90: p50 * 2,
  p99: p50 * 4,
  p999: p50 * 5,
  max: p50 * 6,
  mean: p50 * 1.2,
});

export interface RunShape {
  /** Per-block medians of the dispatch, the hook `guard` (JS) and `noop` (command). */
  overall?: number[];
  guard?: number[];
  noop?: number[];
  /** Per-block baseline medians (same length). */
  baselines?: Partial<Record<BaselineName, number[]>>;
}

/** What a quiet machine records: the main thread hardly ever waited for a CPU, nothing stolen. */
export const QUIET: RunConditions = {
  windowMs: 900,
  cpuWait: 0.004,
  cpuPressure: 0.01,
  steal: 0,
  loadPerCpu: { start: 0.2, end: 0.25 },
};

/** The conditions of a run on a busy machine: its main thread waited `cpuWait` of the run. */
export const busy = (cpuWait: number, steal = 0): RunConditions => ({
  ...QUIET,
  cpuWait,
  steal,
  cpuPressure: Math.min(1, cpuWait * 2),
  loadPerCpu: { start: 2.5, end: 3 },
});

/** Another build: the same version at another (clean) commit. */
export const otherBuild = { hookwarden: { version: '0.1.0', commit: 'b'.repeat(40), dirty: false } };

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** What describes a run, the same in every result built here (fresh objects: tests edit them). */
const description = (): Pick<
  BenchResult,
  'schema' | 'hookwarden' | 'config' | 'policy' | 'event' | 'hooks' | 'input'
> => ({
  schema: 2,
  hookwarden: { version: '0.1.0', commit: 'a'.repeat(40), dirty: false },
  config: ['hooks.json'],
  policy: [],
  event: 'BeforeTool',
  hooks: [
    { id: 'guard', type: 'js', scope: 'project', isolation: 'quickjs', digest: `sha256:${'1'.repeat(64)}` },
    {
      id: 'noop',
      type: 'command',
      scope: 'project',
      isolation: 'process',
      digest: `sha256:${'2'.repeat(64)}`,
    },
  ],
  input: { digest: `sha256:${'3'.repeat(64)}`, value: { toolName: 'Bash' }, varied: false },
});

/** The figures that do not follow the blocks: ratios, stages, the machine and its conditions. */
const figures = (): Pick<
  BenchResult,
  'ratios' | 'stages' | 'warnings' | 'machine' | 'conditions' | 'startedAt'
> => ({
  ratios: {
    overall: { vsPiscinaEcho: 20, vsSpawnTrue: 1.6, vsQuickJsEval: 8, vsEchoPlusEval: 5.7 },
    perHook: { guard: { vsQuickJsEval: 1.2, vsEchoPlusEval: 0.86 }, noop: { vsSpawnTrue: 1.25 } },
  },
  stages: {
    overall: { queueMs: 0.05, transportMs: 0.9, runMs: 0.9, foldMs: 0.15, totalMs: 2 },
    perHook: {
      guard: { queueMs: 0.02, transportMs: 0.2, runMs: 0.3 },
      noop: { queueMs: 0.03, transportMs: 0.7, runMs: 0.6 },
    },
  },
  warnings: [],
  machine: {
    cpuModel: 'cpu',
    cpus: 2,
    totalMemoryBytes: 1,
    node: 'v20.20.2',
    platform: 'linux',
    arch: 'x64',
    loadAverage: [0.5, 0.4, 0.3],
  },
  conditions: QUIET,
  startedAt: '2026-11-29T00:00:00.000Z',
});

/** A run of 10 blocks with the given block medians (defaults: steady figures). */
export function benchResult(shape: RunShape = {}, extra: Partial<BenchResult> = {}): BenchResult {
  const n = shape.overall?.length ?? 10;
  const fill = (v: number) => Array.from({ length: n }, (_, i) => v * (1 + ((i * 7) % 5) / 100));
  const overall = shape.overall ?? fill(2);
  const guard = shape.guard ?? fill(0.3);
  const noop = shape.noop ?? fill(1.5);
  const base = {
    piscinaEcho: shape.baselines?.piscinaEcho ?? fill(0.1),
    spawnTrue: shape.baselines?.spawnTrue ?? fill(1.2),
    quickJsEval: shape.baselines?.quickJsEval ?? fill(0.25),
  };
  const blocks: BlockSummary[] = overall.map((p50, i) => ({
    atMs: i * 100,
    durationMs: 90,
    dispatches: 10,
    overall: { p50, p90: p50 * 1.5, p99: p50 * 3 },
    perHook: { guard: guard[i]!, noop: noop[i]! },
    baselines: {
      piscinaEcho: base.piscinaEcho[i]!,
      spawnTrue: base.spawnTrue[i]!,
      quickJsEval: base.quickJsEval[i]!,
    },
  }));
  const h = new Histogram();
  for (const v of overall) for (let k = 0; k < 10; k++) h.record(v * (0.9 + k / 50));
  return {
    ...description(),
    iterations: n * 10,
    concurrency: 1,
    tenants: 1,
    warmup: 10,
    durationMs: n * 90,
    throughputPerSec: 111,
    overall: lat(median(overall), n * 10),
    perHook: {
      guard: {
        type: 'js',
        ...lat(median(guard), n * 10),
        queuedP50: 0.01,
        queuedP99: 0.02,
        notRun: 0,
        errors: {},
      },
      noop: {
        type: 'command',
        ...lat(median(noop), n * 10),
        queuedP50: 0.01,
        queuedP99: 0.02,
        notRun: 0,
        errors: {},
      },
    },
    baselines: {
      piscinaEcho: lat(median(base.piscinaEcho)),
      spawnTrue: lat(median(base.spawnTrue)),
      quickJsEval: lat(median(base.quickJsEval)),
    },
    decisions: { allow: n * 10 },
    errors: {},
    histogram: h.buckets(2),
    blocks,
    ...figures(),
    ...extra,
  };
}
