// What containment costs (issue 22): a `/bin/true` argv command hook dispatched end to end in
// process mode contained (the default: user, PID, mount and IPC namespaces and a /proc of its own),
// uncontained (HOOKWARDEN_CONTAINMENT=off: the mode before containment) and namespace mode
// (bubblewrap), against a raw child_process.spawn of /bin/true, interleaved in one run; then each
// mode's throughput at concurrency 16. A before build (HOOKWARDEN_BENCH_BEFORE) joins as a row.
// Goals: contained p50 ≤ 1.0× raw spawn (stretch 0.7×); contained throughput at c16 ≥ 0.8× the
// uncontained mode's.

import { createExecutor, type Executor, type ExecutorOptions } from '../src/index.js';
import { spawnTrue } from '../src/measure/baselines.js';
import { beforeBuild } from './builds.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
} from './harness.js';

const hook = (isolation: string): ExecutorOptions => ({
  config: { hooks: { BeforeTool: [{ hooks: [{ argv: ['/bin/true'], isolation }] }] } },
  onWarning: () => {},
});

/** An executor created with HOOKWARDEN_CONTAINMENT=off (read when its command lane is made). */
async function uncontained(options: ExecutorOptions): Promise<Executor> {
  process.env.HOOKWARDEN_CONTAINMENT = 'off';
  try {
    return await createExecutor(options);
  } finally {
    delete process.env.HOOKWARDEN_CONTAINMENT;
  }
}

export async function run(quick = false): Promise<ScenarioReport> {
  const executors: Record<string, Executor> = {
    'process, contained': await createExecutor(hook('process')),
    'process, uncontained': await uncontained(hook('process')),
    namespace: await createExecutor(hook('namespace')),
  };
  const before = await beforeBuild();
  if (before !== undefined) executors[`${before.label}, process`] = await before.create(hook('process'));
  const input = BENCH_INPUT;
  try {
    // Every hook really ran in the mode its row names.
    for (const [name, e] of Object.entries(executors)) {
      const r = await e.dispatch('BeforeTool', input);
      const got = r.hooks[0]?.containment;
      const want = name.startsWith('namespace')
        ? 'namespace'
        : name.includes('uncontained')
          ? 'uncontained'
          : 'contained';
      if (!name.startsWith('before') && got !== want)
        throw new Error(`${name}: the hook ran ${got}, not ${want}`);
    }
    const lat = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        ...Object.fromEntries(
          Object.entries(executors).map(([name, e]) => [name, () => e.dispatch('BeforeTool', input)]),
        ),
      },
      { warmup: quick ? 2 : 30, iterations: quick ? 5 : 300 },
    );
    const thr = await interleavedThroughput(
      Object.fromEntries(
        Object.entries(executors).map(([name, e]) => [`${name}, c16`, () => e.dispatch('BeforeTool', input)]),
      ),
      { blockOps: quick ? 32 : 800, blocks: quick ? 1 : 5, concurrency: 16 },
    );
    const base = lat['raw spawn(/bin/true)']!.p50;
    const ratio = lat['process, contained']!.p50 / base;
    const thrRatio = thr['process, contained, c16']!.median / thr['process, uncontained, c16']!.median;
    return {
      title: 'Contained process mode: what containment costs',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs raw spawn |',
        '|---|---|---|---|---|',
        ...Object.entries(lat).map(
          ([k, s]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
        ),
        '',
        '| throughput at concurrency 16 | dispatches/s (median of blocks) | range | vs uncontained |',
        '|---|---|---|---|',
        ...Object.entries(thr).map(
          ([k, v]) =>
            `| ${k} | ${fmtRate(v.median)} | ${fmtRate(v.min)}–${fmtRate(v.max)} | ${fmt(v.median / thr['process, uncontained, c16']!.median, 2)}× |`,
        ),
      ].join('\n'),
      goals: [
        `contained /bin/true hook p50 ≤ 1.0× raw spawn (stretch 0.7×): ${fmt(ratio, 2)}× — ${ratio <= 0.7 ? 'met, stretch too' : ratio <= 1 ? 'met' : 'NOT met'}`,
        `contained throughput at c16 ≥ 0.8× uncontained: ${fmt(thrRatio, 2)}× — ${thrRatio >= 0.8 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    for (const e of Object.values(executors)) await e.close();
  }
}
