// Wasm hooks against JS hooks, in the same run: a trivial wasm hook (bench/wasm/trivial.c: what the
// trivial JS hook does, built with wasi-libc) and the trivial JS hook, dispatched one at a time
// (interleaved) and at concurrency 32; the Rust example guard as a heavier module; the floors: a
// Piscina echo round trip and the trivial module instantiated and run on the calling thread. RSS of
// a process of its own after 1,000 and after 100,000 wasm dispatches.
// Goals (issue 40): wasm p50 ≤ the JS hook's; c32 throughput ≥ the JS hook's; RSS after 100,000
// wasm calls ≤ 1.2× after 1,000.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryPool } from '../sandbox/wasm/memory-pool.js';
import { compileHookModule } from '../sandbox/wasm/module-cache.js';
import { ModuleRunner } from '../sandbox/wasm/run-module.js';
import { createExecutor } from '../src/index.js';
import { createEchoPool, TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { destroyWhenLoaded } from '../src/pool/destroy-piscina.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
  type Stats,
} from './harness.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** The source files (bench/ and examples/ are not copied to dist/). */
export const TRIVIAL_WASM = here('../../bench/wasm/trivial.wasm');
const RUST_GUARD = here('../../examples/packs/wasm-guard/hooks/protect-paths-rust.wasm');

const JS = 'hookwarden dispatch, trivial JS hook';
const WASM = 'hookwarden dispatch, trivial wasm hook (C, wasi-libc)';
const RUST = 'hookwarden dispatch, Rust example guard (85 KB)';
const ECHO = 'Piscina echo round trip';
const INLINE = 'trivial wasm module instantiated and run on the calling thread';

/** An executor with one wasm hook (a config object's paths are read from its root). */
const wasmExecutor = (file: string) =>
  createExecutor({
    root: dirname(file),
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'wasm', source: basename(file) }] }] } },
    onWarning: () => {},
  });

/** The floor: the trivial module on this thread, as a worker runs it (fresh instance, WASI, _start). */
async function inlineRunner(): Promise<() => Promise<unknown>> {
  const compiled = await compileHookModule(new Uint8Array(readFileSync(TRIVIAL_WASM)), {
    memoryBytes: 32 * 1024 * 1024,
    metered: false,
  });
  if (!compiled.ok) throw new Error(compiled.message);
  const runner = new ModuleRunner(new MemoryPool());
  const spec = {
    key: 'k',
    id: 'bench',
    module: compiled.module,
    maxMemoryBytes: 32 * 1024 * 1024,
    memoryPages: compiled.memoryPages,
    maxOutputBytes: 1 << 20,
    deadlineMs: 5000,
    fuel: undefined,
  };
  const task = { hook: 'k', stdin: JSON.stringify(BENCH_INPUT), nowMs: 0, submittedAt: 0 };
  return async () => runner.run(spec, task, 0);
}

function rssProbe(n: number): { rss1k: number; rssN: number } {
  const probe = here('./workers/rss-probe.js');
  const out = execFileSync(process.execPath, [probe, 'wasm', String(n), TRIVIAL_WASM], { encoding: 'utf8' });
  return JSON.parse(out) as { rss1k: number; rssN: number };
}

export async function run(quick = false): Promise<ScenarioReport> {
  const threads = availableParallelism();
  const load = loadavg().map((l) => fmt(l, 1));
  const js = await createExecutor({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } },
    onWarning: () => {},
  });
  const wasm = await wasmExecutor(TRIVIAL_WASM);
  const rust = await wasmExecutor(RUST_GUARD);
  const echo = createEchoPool(threads);
  const inline = await inlineRunner();
  try {
    for (const e of [js, wasm]) {
      const r = await e.dispatch('BeforeTool', BENCH_INPUT);
      if (r.decision !== 'allow') throw new Error(`a bench hook answered ${r.decision}`);
    }
    const lat = await interleavedLatency(
      {
        [JS]: () => js.dispatch('BeforeTool', BENCH_INPUT),
        [WASM]: () => wasm.dispatch('BeforeTool', BENCH_INPUT),
        [RUST]: () => rust.dispatch('BeforeTool', BENCH_INPUT),
        [ECHO]: () => echo.run(BENCH_INPUT),
        [INLINE]: inline,
      },
      { warmup: quick ? 5 : 300, iterations: quick ? 20 : 3000 },
    );
    const thr = await interleavedThroughput(
      {
        [JS]: () => js.dispatch('BeforeTool', BENCH_INPUT),
        [WASM]: () => wasm.dispatch('BeforeTool', BENCH_INPUT),
      },
      { blockOps: quick ? 200 : 10_000, blocks: quick ? 1 : 5, concurrency: 32 },
    );
    const n = quick ? 2_000 : 100_000;
    const rss = rssProbe(n);
    const p50 = (k: string) => lat[k]!.p50;
    const latRatio = p50(WASM) / p50(JS);
    const thrRatio = thr[WASM]!.median / thr[JS]!.median;
    const rssRatio = rss.rssN / rss.rss1k;
    const row = (k: string, s: Stats) =>
      `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / p50(JS), 2)}× |`;
    return {
      title: 'Wasm hook vs JS hook (issue 40)',
      markdown: [
        `${threads} worker threads per lane (QuickJS and wasm alike). Load average at the start: ${load.join(', ')}.`,
        '',
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs the JS hook |',
        '|---|---|---|---|---|',
        ...Object.entries(lat).map(([k, s]) => row(k, s)),
        '',
        '| throughput at concurrency 32 | dispatches/s (median of blocks) | range | vs the JS hook |',
        '|---|---|---|---|',
        ...Object.entries(thr).map(
          ([k, t]) =>
            `| ${k} | ${fmtRate(t.median)} | ${fmtRate(t.min)}–${fmtRate(t.max)} | ${fmt(t.median / thr[JS]!.median, 2)}× |`,
        ),
        '',
        `RSS of a process of its own (64 calls in flight), trivial wasm hook: ${fmt(rss.rss1k / 2 ** 20, 1)} MB after 1,000, ${fmt(rss.rssN / 2 ** 20, 1)} MB after ${n.toLocaleString('en-US')} (${fmt(rssRatio, 2)}×). Load average at the end: ${loadavg()
          .map((l) => fmt(l, 1))
          .join(', ')}.`,
      ].join('\n'),
      goals: [
        `trivial wasm hook p50 ≤ the trivial JS hook's: ${fmt(latRatio, 2)}× (${fmt(p50(WASM))} ms vs ${fmt(p50(JS))} ms) — ${latRatio <= 1 ? 'met' : 'NOT met'}`,
        `throughput at c32 ≥ the JS hook's: ${fmt(thrRatio, 2)}× (${fmtRate(thr[WASM]!.median)}/s vs ${fmtRate(thr[JS]!.median)}/s) — ${thrRatio >= 1 ? 'met' : 'NOT met'}`,
        `RSS after ${n.toLocaleString('en-US')} wasm calls ≤ 1.2× after 1,000: ${fmt(rssRatio, 2)}× — ${rssRatio <= 1.2 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    for (const e of [js, wasm, rust]) await e.close();
    await destroyWhenLoaded(echo, threads);
  }
}
