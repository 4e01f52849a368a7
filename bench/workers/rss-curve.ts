// Run as a process of its own (with --expose-gc) by bench/js-memory.ts: a JS-hook executor (or a
// Piscina echo pool, `echo`) driven with 64 calls in flight, and at each checkpoint the process
// RSS, the main thread's V8 heap (its reserved total, and what is live after a full collection),
// and, for the executor, each worker's V8 heap and QuickJS memory. Printed as one JSON line.
import { availableParallelism } from 'node:os';
import { basename, dirname } from 'node:path';
import v8 from 'node:v8';
import { internalsOf } from '../../src/executor/internals.js';
import { createExecutor } from '../../src/index.js';
import { createEchoPool, TRIVIAL_HOOK } from '../../src/measure/baselines.js';
import { BENCH_INPUT } from '../harness.js';

const [kind = 'hookwarden', ...args] = process.argv.slice(2);
/** `wasm` takes the module first. */
const wasmModule = kind === 'wasm' ? args.shift() : undefined;
const marks = args;
const checkpoints = marks.length > 0 ? marks.map(Number) : [1_000, 10_000, 25_000, 50_000, 100_000];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

interface WorkerStats {
  threadId: number;
  v8HeapBytes: number;
  heapBytes?: number;
  memoriesCreated?: number;
}
let call: () => Promise<unknown>;
let close: () => Promise<unknown>;
let workers: (() => Promise<WorkerStats[]>) | undefined;
if (kind === 'echo') {
  const pool = createEchoPool(availableParallelism());
  call = () => pool.run(BENCH_INPUT);
  close = () => pool.destroy();
} else if (kind === 'wasm') {
  // `wasm <module.wasm> [checkpoints…]`: the same with one wasm hook (bench/wasm-hook.ts).
  const module = wasmModule!;
  const executor = await createExecutor({
    root: dirname(module),
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'wasm', source: basename(module) }] }] } },
    onWarning: () => {},
  });
  const wasm = internalsOf(executor).pool.wasm;
  call = () => executor.dispatch('BeforeTool', BENCH_INPUT);
  close = () => executor.close();
  workers = () => workerStats(async () => (await wasm.stats()) as WorkerStats);
} else {
  const executor = await createExecutor({
    config: { hooks: { BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }] } },
    onWarning: () => {},
  });
  const js = internalsOf(executor).pool.js;
  call = () => executor.dispatch('BeforeTool', BENCH_INPUT);
  close = () => executor.close();
  // Stats of each worker (asked until every thread has answered: the pool picks the thread).
  workers = () => workerStats(async () => (await js.stats()) as WorkerStats);
}

/** Stats of each worker (asked until every thread has answered: the pool picks the thread). */
async function workerStats(ask: () => Promise<WorkerStats>): Promise<WorkerStats[]> {
  const seen = new Map<number, WorkerStats>();
  for (let i = 0; i < 64 && seen.size < availableParallelism(); i++) {
    const s = await ask();
    seen.set(s.threadId, s);
  }
  return [...seen.values()].sort((a, b) => a.threadId - b.threadId);
}
let done = 0;
const runTo = async (target: number) => {
  while (done < target) {
    const batch = Math.min(64, target - done);
    await Promise.all(Array.from({ length: batch }, call));
    done += batch;
  }
};
const points = [];
for (const at of checkpoints) {
  await runTo(at);
  const rss = process.memoryUsage().rss;
  const heapTotal = v8.getHeapStatistics().total_heap_size;
  // The main thread's young generation (V8 sizes it for the allocation rate) and the rest of its heap.
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
  const mainNewSpace = (spaces.new_space ?? 0) + (spaces.new_large_object_space ?? 0);
  gc();
  const heapLive = v8.getHeapStatistics().used_heap_size;
  const w = workers === undefined ? [] : await workers();
  points.push({
    calls: at,
    rss,
    mainHeapTotal: heapTotal,
    mainNewSpace,
    mainHeapLive: heapLive,
    workerV8: w.map((s) => s.v8HeapBytes),
    workerQuickJs: w.map((s) => s.heapBytes),
    workerMemories: w.map((s) => s.memoriesCreated),
  });
}
await close();
process.stdout.write(`${JSON.stringify(points)}\n`);
