// A `/bin/true` command hook in namespace isolation (bubblewrap) and in process isolation, end to
// end, against a raw child_process.spawn of /bin/true in the same run; plus throughput at
// concurrency 16. Each build of bench/builds.ts (the spawn server, the Node-spawn fallback, a before
// build) is measured in the same interleaved rounds.
// Goals: namespace p50 ≤ 4× raw spawn; throughput at c16 ≥ 2× the Node-spawn path's, both modes.
import { namespaceSupport } from '../sandbox/command/namespace-profile.js';
import type { Executor } from '../src/index.js';
import { spawnTrue } from '../src/measure/baselines.js';
import { builds } from './builds.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
} from './harness.js';

const MODES = ['process', 'namespace'] as const;

export async function run(quick = false): Promise<ScenarioReport> {
  const ns = namespaceSupport();
  if (!ns.ok) {
    return {
      title: 'Command hook in namespace isolation',
      markdown: `Not measured: ${ns.reason} (${ns.hint}).`,
      goals: ['namespace hook p50 ≤ 4× raw spawn: not measured'],
    };
  }
  const hook = (isolation: string) => ({
    hooks: { BeforeTool: [{ hooks: [{ argv: ['/bin/true'], isolation }] }] },
  });
  const executors: { build: string; mode: (typeof MODES)[number]; executor: Executor }[] = [];
  for (const b of await builds()) {
    for (const mode of MODES) {
      executors.push({
        build: b.label,
        mode,
        executor: await b.create({ config: hook(mode), onWarning: () => {} }),
      });
    }
  }
  const name = (e: (typeof executors)[number]) => `${e.build}, ${e.mode} isolation`;
  const input = BENCH_INPUT;
  try {
    const lat = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        ...Object.fromEntries(
          executors.map((e) => [name(e), () => e.executor.dispatch('BeforeTool', input)]),
        ),
      },
      { warmup: quick ? 2 : 20, iterations: quick ? 5 : 200 },
    );
    const thr = await interleavedThroughput(
      Object.fromEntries(
        executors.map((e) => [`${name(e)}, c16`, () => e.executor.dispatch('BeforeTool', input)]),
      ),
      { blockOps: quick ? 32 : 800, blocks: quick ? 1 : 3, concurrency: 16 },
    );
    const base = lat['raw spawn(/bin/true)']!.p50;
    const first = executors[0]!.build;
    const ratio = lat[`${first}, namespace isolation`]!.p50 / base;
    const goals = [
      `namespace /bin/true hook p50 ≤ 4× raw spawn: ${fmt(ratio, 2)}× — ${ratio <= 4 ? 'met' : 'NOT met'}`,
    ];
    for (const other of executors.filter((e) => e.build !== first && e.mode === 'process')) {
      for (const mode of MODES) {
        const gain =
          thr[`${first}, ${mode} isolation, c16`]!.median /
          thr[`${other.build}, ${mode} isolation, c16`]!.median;
        goals.push(
          `${mode} throughput at c16, ${first} vs ${other.build}: ${fmt(gain, 2)}× ≥ 2× — ${gain >= 2 ? 'met' : 'NOT met'}`,
        );
      }
    }
    return {
      title: 'Command hook in namespace isolation (bubblewrap)',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs raw spawn |',
        '|---|---|---|---|---|',
        ...Object.entries(lat).map(
          ([k, s]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
        ),
        '',
        '| throughput at concurrency 16 | dispatches/s (median of blocks) | range |',
        '|---|---|---|',
        ...Object.entries(thr).map(
          ([k, v]) => `| ${k} | ${fmtRate(v.median)} | ${fmtRate(v.min)}–${fmtRate(v.max)} |`,
        ),
      ].join('\n'),
      goals,
    };
  } finally {
    for (const e of executors) await e.executor.close();
  }
}
