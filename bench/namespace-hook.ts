// A `/bin/true` command hook in namespace isolation, as the spawn server builds it, against a raw
// child_process.spawn of /bin/true and against the same hook in contained process mode, in one run;
// plus throughput at concurrency 16. The same plan built by bubblewrap (HOOKWARDEN_NAMESPACE=bwrap,
// what namespace mode was before) is a row where it is installed, and so is the before build
// (HOOKWARDEN_BENCH_BEFORE, bench/builds.ts).
// Goals (issue 37): namespace p50 ≤ 1.5× raw spawn; namespace throughput at c16 ≥ 0.7× contained's.
import { findBwrap } from '../sandbox/command/bwrap-profile.js';
import { namespaceSupport } from '../sandbox/command/namespace-profile.js';
import { createExecutor, type Executor } from '../src/index.js';
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

const hook = (isolation: string) => ({
  hooks: { BeforeTool: [{ hooks: [{ argv: ['/bin/true'], isolation }] }] },
});

/** Creates an executor with `env` set while its command lane reads the knobs. */
async function withEnv(env: Record<string, string>, create: () => Promise<Executor>): Promise<Executor> {
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  try {
    return await create();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

async function executors(): Promise<Record<string, Executor>> {
  const mk = (isolation: string, env: Record<string, string> = {}) =>
    withEnv(env, () => createExecutor({ config: hook(isolation), onWarning: () => {} }));
  const out: Record<string, Executor> = {
    contained: await mk('process'),
    namespace: await mk('namespace'),
  };
  if (findBwrap().ok)
    out['namespace, bubblewrap (HOOKWARDEN_NAMESPACE=bwrap)'] = await mk('namespace', {
      HOOKWARDEN_NAMESPACE: 'bwrap',
    });
  const before = await beforeBuild();
  if (before !== undefined)
    out[`${before.label}, namespace (bubblewrap)`] = await before.create({
      config: hook('namespace'),
      onWarning: () => {},
    });
  return out;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const ns = namespaceSupport('native');
  if (!ns.ok) {
    return {
      title: 'Command hook in namespace isolation',
      markdown: `Not measured: ${ns.reason} (${ns.hint}).`,
      goals: ['namespace hook p50 ≤ 1.5× raw spawn: not measured'],
    };
  }
  const ex = await executors();
  const dispatch = (e: Executor) => () => e.dispatch('BeforeTool', BENCH_INPUT);
  try {
    const lat = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        ...Object.fromEntries(Object.entries(ex).map(([k, e]) => [k, dispatch(e)])),
      },
      { warmup: quick ? 2 : 30, iterations: quick ? 5 : 300 },
    );
    const thr = await interleavedThroughput(
      Object.fromEntries(Object.entries(ex).map(([k, e]) => [`${k}, c16`, dispatch(e)])),
      { blockOps: quick ? 32 : 800, blocks: quick ? 1 : 5, concurrency: 16 },
    );
    const base = lat['raw spawn(/bin/true)']!.p50;
    const ratio = lat.namespace!.p50 / base;
    const share = thr['namespace, c16']!.median / thr['contained, c16']!.median;
    const goals = [
      `namespace /bin/true hook p50 ≤ 1.5× raw spawn: ${fmt(ratio, 2)}× — ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
      `namespace throughput at c16 ≥ 0.7× contained's: ${fmt(share, 2)}× (${fmtRate(thr['namespace, c16']!.median)}/s vs ${fmtRate(thr['contained, c16']!.median)}/s) — ${share >= 0.7 ? 'met' : 'NOT met'}`,
    ];
    return {
      title: 'Command hook in namespace isolation',
      markdown: [
        `Namespace sandboxes ${ns.how === 'prepared' ? 'prepared once by the server (root)' : 'built per hook'}.`,
        '',
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
    for (const e of Object.values(ex)) await e.close();
  }
}
