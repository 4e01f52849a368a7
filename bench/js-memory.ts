// What a JS-hook executor's memory does over 100,000 calls (issue 29, item 5): the process RSS at
// checkpoints, against a Piscina echo pool of as many threads in the same run, each in a process
// of its own (bench/workers/rss-curve.ts), with where it is: the main thread's V8 heap (reserved,
// and live after a full collection), each worker's V8 heap and its QuickJS memory. Goal: RSS after
// 100,000 calls ≤ 1.2× RSS after 1,000.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmt, type ScenarioReport } from './harness.js';

interface Point {
  calls: number;
  rss: number;
  mainHeapTotal: number;
  mainHeapLive: number;
  workerV8: number[];
  workerQuickJs: number[];
}

const CURVE = fileURLToPath(new URL('./workers/rss-curve.js', import.meta.url));
const mb = (b: number) => fmt(b / 2 ** 20, 1);

function curve(kind: 'hookwarden' | 'echo', marks: number[]): Point[] {
  const out = execFileSync(process.execPath, ['--expose-gc', CURVE, kind, ...marks.map(String)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Point[];
}

export async function run(quick = false): Promise<ScenarioReport> {
  const marks = quick ? [500, 2_000] : [1_000, 10_000, 25_000, 50_000, 100_000, 200_000];
  // Interleaved: executor, echo, executor, echo (two processes of each); the medians' ratios are quoted.
  const runs = quick ? 1 : 2;
  const hw: Point[][] = [];
  const echo: Point[][] = [];
  for (let i = 0; i < runs; i++) {
    hw.push(curve('hookwarden', marks));
    echo.push(curve('echo', marks));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const at = (runsOf: Point[][], i: number, f: (p: Point) => number) => median(runsOf.map((r) => f(r[i]!)));
  const first = 0;
  const last = marks.length - 1;
  const hundredK = marks.indexOf(100_000) >= 0 ? marks.indexOf(100_000) : last;
  const warm = marks.indexOf(25_000) >= 0 ? marks.indexOf(25_000) : first;
  const ratio = (runsOf: Point[][], a: number, b: number) =>
    at(runsOf, b, (p) => p.rss) / at(runsOf, a, (p) => p.rss);
  const rows = marks.map((m, i) => {
    const w = hw.map((r) => r[i]!);
    return `| ${m.toLocaleString('en-US')} | ${mb(at(hw, i, (p) => p.rss))} | ${mb(at(echo, i, (p) => p.rss))} | ${mb(at(hw, i, (p) => p.mainHeapTotal))} / ${mb(at(hw, i, (p) => p.mainHeapLive))} | ${mb(median(w.map((p) => Math.max(...p.workerV8))))} | ${mb(median(w.map((p) => Math.max(...p.workerQuickJs))))} |`;
  });
  const r100 = ratio(hw, first, hundredK);
  return {
    title: 'JS hooks: memory over 100,000 calls (issue 29)',
    markdown: [
      `Each in a process of its own, 64 calls in flight, ${runs} process(es) of each kind, interleaved; medians. The executor has the default 2 QuickJS threads; the echo pool as many threads, no QuickJS.`,
      '',
      '| calls | executor RSS MB | echo pool RSS MB | executor main-thread V8 heap MB (reserved / live after GC) | largest executor worker: V8 heap MB | and its QuickJS memory MB |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `RSS ratios: executor ${fmt(r100, 2)}× from 1,000 to 100,000 calls, ${fmt(ratio(hw, warm, hundredK), 2)}× from 25,000 to 100,000, ${fmt(ratio(hw, hundredK, last), 2)}× from 100,000 to ${marks[last]!.toLocaleString('en-US')}; echo pool ${fmt(ratio(echo, first, hundredK), 2)}×, ${fmt(ratio(echo, warm, hundredK), 2)}×, ${fmt(ratio(echo, hundredK, last), 2)}×.`,
    ].join('\n'),
    goals: [
      `RSS after 100,000 invocations ≤ 1.2× RSS after 1,000: ${fmt(r100, 2)}× — ${r100 <= 1.2 ? 'met' : 'NOT met'}`,
      `no growth after warm-up (RSS after ${marks[last]!.toLocaleString('en-US')} ≤ 1.05× after 25,000): ${fmt(ratio(hw, warm, last), 2)}× — ${ratio(hw, warm, last) <= 1.05 ? 'met' : 'NOT met'}`,
    ],
  };
}
