// JS hooks: one dispatch end to end against what it is made of, measured in the same run — a raw
// Piscina echo round trip and an in-thread fresh QuickJS runtime+context evaluation of the same hook —
// and against the naive pool (a Piscina worker that makes a fresh runtime+context and evaluates the
// hook per task: the same guarantee in a few lines). Two hooks: a trivial one, and a 40 KB policy hook
// (400 regular expressions) of the size real ones have. Also: throughput at concurrency 32, RSS over
// 100,000 invocations, and the trivial hook as a per-call `node hook.js` process.
// Goals (issue 13): trivial hook p50 ≤ 0.75× (echo + eval), stretch 0.5×; policy hook p50 ≤ 1.5× the
// trivial one; c32 throughput ≥ 1.5× the naive pool (stretch 2×; 10 000/s absolute); RSS after
// 100,000 invocations ≤ 1.2× RSS after the first 1,000.
// `HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` (built) adds that build's dispatches to
// the same interleaved rounds.

import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createExecutor } from '../src/index.js';
import { createEchoPool, createQuickJsEval, TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { destroyWhenLoaded } from '../src/pool/destroy-piscina.js';
import { type Build, beforeBuild } from './builds.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  nodeHookProcess,
  type ScenarioReport,
  type Stats,
} from './harness.js';
import { createNaivePool } from './naive-pool.js';
import { POLICY_HOOK } from './policy-hook.js';

const input = BENCH_INPUT;
const ECHO = 'Piscina echo round trip';
const EVAL = 'in-thread fresh QuickJS runtime+context eval, trivial hook';
const EVAL_POLICY = 'in-thread fresh QuickJS runtime+context eval, 40 KB policy hook';
const NAIVE = 'naive pool (fresh runtime+context per task), trivial hook';
const NAIVE_POLICY = 'naive pool, 40 KB policy hook';
const OURS = 'hookwarden dispatch, trivial hook';
const OURS_POLICY = 'hookwarden dispatch, 40 KB policy hook';

type Create = Build['create'];
const executorFor = (create: Create, code: string) =>
  create({ config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code }] }] } }, onWarning: () => {} });

/** RSS of a fresh process after its first 1,000 calls and after `n` (bench/workers/rss-probe.ts). */
function rssProbe(kind: 'hookwarden' | 'before' | 'echo', n: number): { rss1k: number; rssN: number } {
  const probe = fileURLToPath(new URL('./workers/rss-probe.js', import.meta.url));
  const out = execFileSync(process.execPath, [probe, kind, String(n)], { encoding: 'utf8' });
  return JSON.parse(out) as { rss1k: number; rssN: number };
}

export async function run(quick = false): Promise<ScenarioReport> {
  const threads = availableParallelism();
  const before = await beforeBuild();
  const evalTrivial = await createQuickJsEval(input);
  const evalPolicy = await createQuickJsEval(input, POLICY_HOOK);
  const trivial = await executorFor(createExecutor, TRIVIAL_HOOK);
  const policy = await executorFor(createExecutor, POLICY_HOOK);
  const old = before && {
    trivial: await executorFor(before.create, TRIVIAL_HOOK),
    policy: await executorFor(before.create, POLICY_HOOK),
  };
  const echo = createEchoPool(threads);
  const naive = createNaivePool(threads);
  const B = (what: string) => `${before?.label}: ${what}`;
  try {
    for (const e of [trivial, policy, old?.trivial, old?.policy]) {
      const r = await e?.dispatch('BeforeTool', input);
      if (r !== undefined && r.decision !== 'allow') throw new Error(`a bench hook answered ${r.decision}`);
    }
    const lat = await interleavedLatency(
      {
        [ECHO]: () => echo.run(input),
        [EVAL]: evalTrivial,
        [EVAL_POLICY]: evalPolicy,
        [NAIVE]: () => naive.run(TRIVIAL_HOOK, input),
        [NAIVE_POLICY]: () => naive.run(POLICY_HOOK, input),
        [OURS]: () => trivial.dispatch('BeforeTool', input),
        [OURS_POLICY]: () => policy.dispatch('BeforeTool', input),
        ...(old && {
          [B(OURS)]: () => old.trivial.dispatch('BeforeTool', input),
          [B(OURS_POLICY)]: () => old.policy.dispatch('BeforeTool', input),
        }),
      },
      { warmup: quick ? 5 : 200, iterations: quick ? 20 : 2000 },
    );
    const proc = await interleavedLatency(
      {
        'per-call `node hook.js` process': () => nodeHookProcess(input),
        [OURS]: () => trivial.dispatch('BeforeTool', input),
      },
      { warmup: quick ? 1 : 5, iterations: quick ? 3 : 60 },
    );
    const thr = await interleavedThroughput(
      {
        [OURS]: () => trivial.dispatch('BeforeTool', input),
        [NAIVE]: () => naive.run(TRIVIAL_HOOK, input),
        ...(old && { [B(OURS)]: () => old.trivial.dispatch('BeforeTool', input) }),
      },
      { blockOps: quick ? 200 : 10_000, blocks: quick ? 1 : 5, concurrency: 32 },
    );
    const n = quick ? 2_000 : 100_000;
    const rss = rssProbe('hookwarden', n);
    const rssEcho = rssProbe('echo', n);
    const rssBefore = before && rssProbe('before', n);
    const rssRatio = rss.rssN / rss.rss1k;
    const mbOf = (r: { rss1k: number; rssN: number }) =>
      `${fmt(r.rss1k / 2 ** 20, 1)} MB after 1,000, ${fmt(r.rssN / 2 ** 20, 1)} MB after ${n.toLocaleString('en-US')} (${fmt(r.rssN / r.rss1k, 2)}×)`;

    const p50 = (k: string) => lat[k]!.p50;
    const floor = p50(ECHO) + p50(EVAL);
    const ratio = p50(OURS) / floor;
    const policyRatio = p50(OURS_POLICY) / p50(OURS);
    const c32 = thr[OURS]!.median;
    const naiveC32 = thr[NAIVE]!.median;
    const thrRatio = c32 / naiveC32;
    const row = (k: string, s: Stats, extra: string) =>
      `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${extra} |`;
    const procRatio = proc['per-call `node hook.js` process']!.p50 / proc[OURS]!.p50;
    return {
      title: 'JS hook in a QuickJS isolate',
      markdown: [
        `${threads} QuickJS worker threads (hookwarden and the naive pool alike). The policy hook is ${fmt(POLICY_HOOK.length / 1024, 1)} KB: 400 rules, each a regular expression, indexed by tool and program (a call tests about a dozen).`,
        '',
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs (echo + eval) |',
        '|---|---|---|---|---|',
        ...Object.entries(lat).map(([k, s]) => row(k, s, `${fmt(s.p50 / floor, 2)}×`)),
        row(
          'per-call `node hook.js` process (own run)',
          proc['per-call `node hook.js` process']!,
          `${fmt(procRatio, 0)}× hookwarden in that run`,
        ),
        '',
        '| throughput at concurrency 32 | dispatches/s (median of blocks) | range | vs naive pool |',
        '|---|---|---|---|',
        ...Object.entries(thr).map(
          ([k, t]) =>
            `| ${k} | ${fmtRate(t.median)} | ${fmtRate(t.min)}–${fmtRate(t.max)} | ${fmt(t.median / naiveC32, 2)}× |`,
        ),
        '',
        `Baseline sum (echo + eval) p50: ${fmt(floor)} ms.`,
        '',
        `RSS, each in a process of its own (64 calls in flight): hookwarden's trivial-hook executor ${mbOf(rss)}; a Piscina echo pool of as many threads ${mbOf(rssEcho)}${rssBefore ? `; ${before?.label} ${mbOf(rssBefore)}` : ''}.`,
      ].join('\n'),
      goals: [
        `one JS hook p50 ≤ 0.75× (echo + eval): ${fmt(ratio, 2)}× — ${ratio <= 0.75 ? 'met' : 'NOT met'}${ratio <= 0.5 ? ' (stretch ≤ 0.5× met)' : ''}`,
        `40 KB policy hook p50 ≤ 1.5× the trivial hook: ${fmt(policyRatio, 2)}× — ${policyRatio <= 1.5 ? 'met' : 'NOT met'}`,
        `throughput at c32 ≥ 1.5× the naive pool: ${fmt(thrRatio, 2)}× (${fmtRate(c32)}/s vs ${fmtRate(naiveC32)}/s) — ${thrRatio >= 1.5 ? 'met' : 'NOT met'}${thrRatio >= 2 ? ' (stretch 2× met)' : ''}; ≥ 10 000/s: ${c32 >= 10_000 ? 'met' : 'NOT met'}`,
        `RSS after ${n.toLocaleString('en-US')} invocations ≤ 1.2× RSS after 1,000: ${fmt(rssRatio, 2)}× — ${rssRatio <= 1.2 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    for (const e of [trivial, policy, old?.trivial, old?.policy]) await e?.close();
    await destroyWhenLoaded(echo, threads);
    await destroyWhenLoaded(naive.pool, threads);
  }
}
