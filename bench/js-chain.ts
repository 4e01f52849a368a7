// A serial chain of 5 adjacent JS hooks (one worker task, folded in the worker) against the same
// work done as 5 dispatches of one JS hook in sequence, and one dispatch of one hook, interleaved.
// Goal: the chain costs less than 5 separate dispatches (it saves 4 round trips to the worker).

import { createExecutor } from '../src/index.js';
import { TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { BENCH_INPUT, fmt, interleavedLatency, type ScenarioReport } from './harness.js';

const input = BENCH_INPUT;
const LENGTH = 5;

// Distinct sources: identical specs would run once per event.
const chainHook = (i: number) => ({
  type: 'js',
  name: `chain-${i}`,
  code: `const position = ${i};\n${TRIVIAL_HOOK}`,
});

export async function run(quick = false): Promise<ScenarioReport> {
  const chain = await createExecutor({
    config: {
      hooks: { BeforeTool: [{ hooks: Array.from({ length: LENGTH }, (_, i) => chainHook(i + 1)) }] },
    },
    onWarning: () => {},
  });
  try {
    const single = await createExecutor({
      config: { hooks: { BeforeTool: [{ hooks: [chainHook(1)] }] } },
      onWarning: () => {},
    });
    try {
      const check = await chain.dispatch('BeforeTool', input);
      const ran = check.hooks.filter((h) => h.outcome === 'allow').length;
      if (ran !== LENGTH) throw new Error(`expected ${LENGTH} hooks to answer allow, got ${ran}`);
      const r = await interleavedLatency(
        {
          [`chain of ${LENGTH} JS hooks, one dispatch`]: () => chain.dispatch('BeforeTool', input),
          [`${LENGTH} dispatches of one JS hook, in sequence`]: async () => {
            for (let i = 0; i < LENGTH; i++) await single.dispatch('BeforeTool', input);
          },
          'one dispatch of one JS hook': () => single.dispatch('BeforeTool', input),
        },
        { warmup: quick ? 3 : 200, iterations: quick ? 10 : 2000 },
      );
      const chainP50 = r[`chain of ${LENGTH} JS hooks, one dispatch`]!.p50;
      const separate = r[`${LENGTH} dispatches of one JS hook, in sequence`]!.p50;
      const one = r['one dispatch of one JS hook']!.p50;
      const ratio = chainP50 / separate;
      return {
        title: `JS hooks: serial chain of ${LENGTH} vs ${LENGTH} separate dispatches`,
        markdown: [
          `| variant | p50 ms | p90 ms | p99 ms | p50 vs ${LENGTH} separate dispatches |`,
          '|---|---|---|---|---|',
          ...Object.entries(r).map(
            ([k, s]) =>
              `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / separate, 2)}× |`,
          ),
          '',
          `Each hook after the first adds ${fmt((chainP50 - one) / (LENGTH - 1))} ms to the chain (p50), against ${fmt(one)} ms for a dispatch of its own.`,
        ].join('\n'),
        goals: [
          `chain of ${LENGTH} p50 < ${LENGTH} separate dispatches: ${fmt(ratio, 2)}× — ${ratio < 1 ? 'met' : 'NOT met'}`,
        ],
      };
    } finally {
      await single.close();
    }
  } finally {
    await chain.close();
  }
}
