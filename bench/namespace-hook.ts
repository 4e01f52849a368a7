// A `/bin/true` command hook in namespace isolation (bubblewrap), end to end, against a raw
// child_process.spawn of /bin/true in the same run; plus throughput at concurrency 16.
// Goal: p50 ≤ 4× raw spawn.
import { namespaceSupport } from '../sandbox/command/namespace-profile.js';
import { spawnTrue } from '../src/bench/baselines.js';
import { createExecutor } from '../src/index.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
} from './harness.js';

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
  const nsExec = await createExecutor({ config: hook('namespace'), onWarning: () => {} });
  const procExec = await createExecutor({ config: hook('process'), onWarning: () => {} });
  const input = BENCH_INPUT;
  try {
    const lat = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        'hookwarden, process isolation': () => procExec.dispatch('BeforeTool', input),
        'hookwarden, namespace isolation': () => nsExec.dispatch('BeforeTool', input),
      },
      { warmup: quick ? 2 : 20, iterations: quick ? 5 : 300 },
    );
    const thr = await interleavedThroughput(
      {
        'namespace isolation, c16': () => nsExec.dispatch('BeforeTool', input),
        'process isolation, c16': () => procExec.dispatch('BeforeTool', input),
      },
      { blockOps: quick ? 32 : 1000, blocks: quick ? 1 : 3, concurrency: 16 },
    );
    const base = lat['raw spawn(/bin/true)']!.p50;
    const ratio = lat['hookwarden, namespace isolation']!.p50 / base;
    return {
      title: 'Command hook in namespace isolation (bubblewrap)',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs raw spawn |',
        '|---|---|---|---|---|',
        ...Object.entries(lat).map(
          ([k, s]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
        ),
        '',
        '| throughput at concurrency 16 | dispatches/s (median of blocks) |',
        '|---|---|',
        ...Object.entries(thr).map(([k, v]) => `| ${k} | ${fmtRate(v.median)} |`),
      ].join('\n'),
      goals: [
        `namespace /bin/true hook p50 ≤ 4× raw spawn: ${fmt(ratio, 2)}× — ${ratio <= 4 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await nsExec.close();
    await procExec.close();
  }
}
