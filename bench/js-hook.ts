// JS hooks: one trivial hook dispatched end to end, against the sum of its two unavoidable parts
// measured in the same run — a raw Piscina echo round trip and an in-thread fresh QuickJS
// runtime+context evaluation of the same hook. Also: throughput at concurrency 32, RSS growth over
// many invocations, and the same hook as a per-call `node hook.js` process.
// Goals: p50 ≤ 1.5× the baseline sum (stretch 1.0×); ≥ 6 000 dispatches/s at c32 (stretch 10 000);
// RSS growth < 20 MB over 100 000 invocations.

import { availableParallelism } from 'node:os';
import { createEchoPool, createQuickJsEval, TRIVIAL_HOOK } from '../src/bench/baselines.js';
import { createExecutor } from '../src/index.js';
import { destroyWhenLoaded } from '../src/pool/destroy-piscina.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  nodeHookProcess,
  type ScenarioReport,
} from './harness.js';

const input = BENCH_INPUT;

export async function run(quick = false): Promise<ScenarioReport> {
  const evalOnce = await createQuickJsEval(input);
  const executor = await createExecutor({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } },
    onWarning: () => {},
  });
  const echo = createEchoPool(2);
  try {
    await executor.dispatch('BeforeTool', input);
    const lat = await interleavedLatency(
      {
        'Piscina echo round trip': () => echo.run(input),
        'in-thread fresh QuickJS runtime+context eval': evalOnce,
        'hookwarden dispatch, one JS hook': () => executor.dispatch('BeforeTool', input),
      },
      { warmup: quick ? 5 : 300, iterations: quick ? 20 : 3000 },
    );
    const proc = await interleavedLatency(
      {
        'per-call `node hook.js` process': () => nodeHookProcess(input),
        'hookwarden dispatch, one JS hook': () => executor.dispatch('BeforeTool', input),
      },
      { warmup: quick ? 1 : 5, iterations: quick ? 3 : 60 },
    );
    const echoP50 = lat['Piscina echo round trip']!.p50;
    const evalP50 = lat['in-thread fresh QuickJS runtime+context eval']!.p50;
    const ours = lat['hookwarden dispatch, one JS hook']!.p50;
    const ratio = ours / (echoP50 + evalP50);

    const thr = await interleavedThroughput(
      { 'hookwarden dispatch, one JS hook, c32': () => executor.dispatch('BeforeTool', input) },
      { blockOps: quick ? 200 : 10_000, blocks: quick ? 1 : 5, concurrency: 32 },
    );
    const c32 = thr['hookwarden dispatch, one JS hook, c32']!.median;

    const n = quick ? 2_000 : 100_000;
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (let done = 0; done < n; ) {
      const batch = Math.min(64, n - done);
      await Promise.all(Array.from({ length: batch }, () => executor.dispatch('BeforeTool', input)));
      done += batch;
    }
    globalThis.gc?.();
    const growthMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;

    const threads = availableParallelism();
    const procRatio =
      proc['per-call `node hook.js` process']!.p50 / proc['hookwarden dispatch, one JS hook']!.p50;
    const rows = [
      ...Object.entries(lat).map(([k, s]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} |`),
      `| per-call \`node hook.js\` process | ${fmt(proc['per-call `node hook.js` process']!.p50)} | ${fmt(proc['per-call `node hook.js` process']!.p90)} | ${fmt(proc['per-call `node hook.js` process']!.p99)} |`,
    ];
    return {
      title: 'JS hook in a QuickJS isolate',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms |',
        '|---|---|---|---|',
        ...rows,
        '',
        `Baseline sum (echo + eval) p50: ${fmt(echoP50 + evalP50)} ms. Throughput at concurrency 32: ${fmtRate(c32)} dispatches/s (median of blocks); for scale, ${threads} threads doing nothing but the in-thread fresh-runtime evaluation above would top out at ${fmtRate((threads * 1000) / evalP50)}/s on this machine. RSS growth over ${n.toLocaleString('en-US')} invocations: ${fmt(growthMb, 1)} MB. A per-call \`node hook.js\` process is ${fmt(procRatio, 0)}× slower than the isolate.`,
      ].join('\n'),
      goals: [
        `one JS hook p50 ≤ 1.5× (echo + eval): ${fmt(ratio, 2)}× — ${ratio <= 1.5 ? 'met' : 'NOT met'}${ratio <= 1.0 ? ' (stretch ≤ 1.0× met)' : ''}`,
        `throughput at c32 ≥ 6 000/s: ${fmtRate(c32)}/s — ${c32 >= 6000 ? 'met' : 'NOT met'}${c32 >= 10_000 ? ' (stretch 10 000 met)' : ''}`,
        `RSS growth over ${n.toLocaleString('en-US')} invocations < 20 MB: ${fmt(growthMb, 1)} MB — ${growthMb < 20 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await executor.close();
    await destroyWhenLoaded(echo, 2);
  }
}
