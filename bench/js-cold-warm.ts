// JS hook, cold and warm. Cold: a fresh executor's createExecutor() plus its first dispatch (worker
// threads start and compile QuickJS), over several fresh executors. Baselines in the same rounds,
// rotating which goes first: a fresh Piscina echo pool of as many threads plus its first round trip,
// and an in-thread QuickJS module instantiation plus its first evaluation. Warm: the steady-state
// dispatch of the same executor against a Piscina echo round trip + an in-thread fresh evaluation.
// Goal (issue 13): cold start not worse than before the heap images. `HOOKWARDEN_BENCH_BEFORE=<another
// checkout>/bin/hookwarden` (built) adds that build's cold start and warm dispatch to the same rounds.

import { availableParallelism } from 'node:os';
import { createExecutor } from '../src/index.js';
import { createEchoPool, createQuickJsEval, TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { destroyWhenLoaded } from '../src/pool/destroy-piscina.js';
import { type Build, beforeBuild } from './builds.js';
import { BENCH_INPUT, fmt, interleavedLatency, type ScenarioReport, type Stats, stats } from './harness.js';

const input = BENCH_INPUT;
const config = { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } };

const COLD = 'hookwarden: createExecutor + first dispatch';

/** A cold start of `create`'s executor: createExecutor, its first dispatch, teardown. */
function coldExecutor(label: string, create: Build['create']) {
  return async () => {
    const t = performance.now();
    const executor = await create({ config, onWarning: () => {} });
    try {
      const created = performance.now();
      await executor.dispatch('BeforeTool', input);
      const done = performance.now();
      return {
        [`${label}createExecutor + first dispatch`]: done - t,
        [`${label}first dispatch after createExecutor`]: done - created,
      };
    } finally {
      await executor.close();
    }
  };
}

/** Each cold start variant: starts from nothing, answers once, tears down; returns its timings in ms. */
function coldVariants(threads: number, before: Build | undefined): (() => Promise<Record<string, number>>)[] {
  return [
    coldExecutor('hookwarden: ', createExecutor),
    ...(before === undefined ? [] : [coldExecutor(`${before.label}: hookwarden: `, before.create)]),
    async () => {
      const t = performance.now();
      const pool = createEchoPool(threads);
      try {
        await pool.run(input);
        return { [echoName(threads)]: performance.now() - t };
      } finally {
        await destroyWhenLoaded(pool, threads);
      }
    },
    async () => {
      const t = performance.now();
      await (await createQuickJsEval(input))();
      return { 'in-thread QuickJS module instantiation + first eval': performance.now() - t };
    },
  ];
}

const echoName = (threads: number) => `fresh Piscina echo pool (${threads} threads) + first round trip`;

export async function run(quick = false): Promise<ScenarioReport> {
  const threads = availableParallelism();
  const before = await beforeBuild();
  const rounds = quick ? 2 : 15;
  const cold: Record<string, number[]> = {};
  const variants = coldVariants(threads, before);
  for (let i = 0; i < rounds; i++) {
    // Rotate which variant goes first in each round.
    for (let k = 0; k < variants.length; k++) {
      const timings = await variants[(i + k) % variants.length]!();
      for (const [name, ms] of Object.entries(timings)) {
        cold[name] ??= [];
        cold[name].push(ms);
      }
    }
  }
  const coldStats: Record<string, Stats> = Object.fromEntries(
    Object.entries(cold).map(([k, v]) => [k, stats(v)]),
  );

  const evalOnce = await createQuickJsEval(input);
  const executor = await createExecutor({ config, onWarning: () => {} });
  const old = await before?.create({ config, onWarning: () => {} });
  const echo = createEchoPool(threads);
  try {
    await executor.dispatch('BeforeTool', input);
    await old?.dispatch('BeforeTool', input);
    const warm = await interleavedLatency(
      {
        'hookwarden dispatch, warm': () => executor.dispatch('BeforeTool', input),
        ...(old && {
          [`${before?.label}: hookwarden dispatch, warm`]: () => old.dispatch('BeforeTool', input),
        }),
        'Piscina echo round trip, warm': () => echo.run(input),
        'in-thread fresh QuickJS runtime+context eval': evalOnce,
      },
      { warmup: quick ? 5 : 300, iterations: quick ? 20 : 3000 },
    );
    const coldOurs = coldStats[COLD]!.p50;
    const coldBefore = before && coldStats[`${before.label}: ${COLD}`]?.p50;
    const coldEcho = coldStats[echoName(threads)]!.p50;
    const warmOurs = warm['hookwarden dispatch, warm']!.p50;
    const warmFloor =
      warm['Piscina echo round trip, warm']!.p50 + warm['in-thread fresh QuickJS runtime+context eval']!.p50;
    const row = (k: string, s: Stats, base: number) =>
      `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`;
    return {
      title: 'JS hook: cold start vs warm',
      markdown: [
        `Cold: ${rounds} fresh executors (${threads} QuickJS worker threads each), interleaved with fresh echo pools of as many threads.`,
        '',
        '| cold variant | p50 ms | p90 ms | p99 ms | p50 vs fresh echo pool |',
        '|---|---|---|---|---|',
        ...Object.entries(coldStats).map(([k, s]) => row(k, s, coldEcho)),
        '',
        '| warm variant | p50 ms | p90 ms | p99 ms | p50 vs echo + eval |',
        '|---|---|---|---|---|',
        ...Object.entries(warm).map(([k, s]) => row(k, s, warmFloor)),
        '',
        `A cold executor answers its first JS hook in ${fmt(coldOurs, 1)} ms (p50), ${fmt(coldOurs / warmOurs, 0)}× a warm dispatch.`,
      ].join('\n'),
      goals: [
        `cold start (createExecutor + first JS dispatch) p50 vs a fresh echo pool: ${fmt(coldOurs / coldEcho, 2)}× (reported)`,
        ...(coldBefore === undefined
          ? []
          : [
              `cold start not worse than ${before?.label}: ${fmt(coldOurs, 1)} ms vs ${fmt(coldBefore, 1)} ms p50 (${fmt(coldOurs / coldBefore, 2)}×) — ${coldOurs <= coldBefore * 1.05 ? 'met' : 'NOT met'}`,
            ]),
        `warm JS dispatch p50 ≤ 1.5× (echo + eval): ${fmt(warmOurs / warmFloor, 2)}× — ${warmOurs / warmFloor <= 1.5 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await executor.close();
    await old?.close();
    await destroyWhenLoaded(echo, threads);
  }
}
