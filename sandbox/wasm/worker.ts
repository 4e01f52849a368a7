// The Piscina worker of the wasm lane. Hooks arrive once per worker as specs (the compiled module,
// shared with every thread, and its limits) and tasks refer to them by key; a task whose spec this
// worker does not hold is answered `missing` and the host sends it again with it. Each task is one
// call on a fresh instance (run-module.ts). Before each task the worker writes its index and start
// time into the batch's slot of the shared progress cells: the host's deadline timer reads them, so a module that
// never returns is stopped at its own deadline (the host terminates this thread) and the tasks after
// it in the batch run elsewhere. The memories calls gave back are zeroed while idle.
import v8 from 'node:v8';
import { threadId, workerData } from 'node:worker_threads';
import type {
  WasmBatch,
  WasmBatchResult,
  WasmOutcome,
  WasmTaskMissing,
  WasmWorkerSpec,
} from '../../src/contract/wasm-task.js';
import { MemoryPool } from './memory-pool.js';
import { ModuleRunner } from './run-module.js';

/** Specs kept; least recently used ones are dropped past it (and sent again when needed). */
const MAX_SPECS = 1024;

const specs = new Map<string, WasmWorkerSpec>();
/** The lane's progress cells: two float64 per batch slot (src/pool/wasm-batch.ts). */
const progress = new Float64Array((workerData as { progress: SharedArrayBuffer }).progress);
const memories = new MemoryPool();
const runner = new ModuleRunner(memories);
let tasksRun = 0;
let missingSpecs = 0;
let tidying: NodeJS.Immediate | undefined;

function spec(key: string): WasmWorkerSpec | undefined {
  const s = specs.get(key);
  if (s !== undefined) {
    specs.delete(key);
    specs.set(key, s);
  }
  return s;
}

/** A Piscina task: the batch's tasks in order; its progress cells are slot `slot`'s. */
export default function runBatch(batch: WasmBatch & { readonly slot: number }): WasmBatchResult {
  if (tidying !== undefined) {
    clearImmediate(tidying);
    tidying = undefined;
  }
  for (const s of batch.specs ?? []) {
    specs.delete(s.key);
    specs.set(s.key, s);
    if (specs.size > MAX_SPECS) specs.delete(specs.keys().next().value!);
  }
  const results: (WasmOutcome | WasmTaskMissing)[] = [];
  for (const [i, task] of batch.tasks.entries()) {
    const s = spec(task.hook);
    if (s === undefined) {
      missingSpecs++;
      results.push({ missing: [task.hook] });
      continue;
    }
    const now = performance.timeOrigin + performance.now();
    progress[batch.slot * 2 + 1] = now;
    progress[batch.slot * 2] = i;
    tasksRun++;
    results.push(runner.run(s, task, Math.max(0, now - task.submittedAt)));
  }
  tidying = setImmediate(() => {
    tidying = undefined;
    memories.tidy();
  });
  return { threadId, results };
}

/** Worker state for tests and leak checks (Piscina task name `stats`). */
export function stats(): {
  threadId: number;
  tasksRun: number;
  missingSpecs: number;
  specs: number;
  memoriesCreated: number;
  v8HeapBytes: number;
} {
  return {
    threadId,
    tasksRun,
    missingSpecs,
    specs: specs.size,
    memoriesCreated: memories.created,
    v8HeapBytes: v8.getHeapStatistics().total_heap_size,
  };
}
