// The Piscina worker of the QuickJS lane: one QuickJS module per worker thread (created when the
// worker starts, so idle workers are warm), one fresh runtime+context per hook invocation. A task is
// one hook, or a run of adjacent JS hooks of a serial chain folded here with the host's own pure fold
// (one round trip per chain). When a hook drove the heap to its ceiling, or the module broke, the
// module is thrown away with its WebAssembly.Memory and a fresh one is built before the next hook
// (the heap never shrinks otherwise). A hook that ignores its interrupt is the host's to stop: the
// task is aborted and Piscina terminates this thread.
import { threadId, workerData } from 'node:worker_threads';
import { foldStep, startFold } from '../../src/contract/fold.js';
import type { JsHookOutcome, JsTask, JsTaskResult } from '../../src/contract/js-task.js';
import { createQuickJsModule, type QuickJsModule } from './quickjs-module.js';
import { liveCounts, resetLiveCounts, runJsHook } from './run-hook.js';

export interface JsWorkerStats {
  readonly threadId: number;
  /** QuickJS modules this thread built (1 + replacements after a heap at its ceiling). */
  readonly modulesBuilt: number;
  /** Tasks this thread ran (a serial run of JS hooks is one task). */
  readonly tasksRun: number;
  readonly heapBytes: number;
  readonly ceilingBytes: number;
  /** Runtimes and contexts not disposed (must be 0 between tasks). */
  readonly liveRuntimes: number;
  readonly liveContexts: number;
}

export interface JsWorkerData {
  /** Hard cap of this worker's QuickJS heap (the WebAssembly.Memory maximum), in bytes. */
  readonly heapCeilingBytes: number;
}

const { heapCeilingBytes } = workerData as JsWorkerData;
let qjs: QuickJsModule = await createQuickJsModule(heapCeilingBytes);
let modulesBuilt = 1;
let tasksRun = 0;

export default async function runTask(task: JsTask): Promise<JsTaskResult> {
  tasksRun++;
  const startedAt = performance.timeOrigin + performance.now();
  const queuedMs = Math.max(0, startedAt - task.submittedAt);
  const nowMs = Date.parse(task.input.timestamp);
  let state = startFold(task.input);
  const outcomes: JsHookOutcome[] = [];
  let recycled: string | undefined;
  for (const [i, hook] of task.hooks.entries()) {
    if (state.stopped) {
      outcomes.push({ answer: { kind: 'not-run' } });
      continue;
    }
    const inputJson = JSON.stringify(state.input);
    const bytes = Buffer.byteLength(inputJson);
    if (bytes > task.maxInputBytes) {
      const message = `input is ${bytes} bytes, above limits.maxInputBytes (${task.maxInputBytes})`;
      const answer = {
        kind: 'failure' as const,
        error: { code: 'input_too_large' as const, message },
        latencyMs: 0,
        queuedMs: 0,
      };
      outcomes.push({ answer });
      state = foldStep(task.event, state, hook, answer);
      continue;
    }
    const r = runJsHook(qjs, hook, {
      event: task.event.name,
      tenant: task.tenant,
      inputJson,
      nowMs: Number.isFinite(nowMs) ? nowMs : 0,
    });
    let answer = r.answer;
    if (answer.kind !== 'not-run' && i === 0) answer = { ...answer, queuedMs };
    const why = r.tainted
      ? 'the QuickJS module could not free a runtime'
      : qjs.memory.buffer.byteLength >= qjs.ceilingBytes
        ? `the QuickJS heap reached its ceiling (${qjs.ceilingBytes} bytes)`
        : undefined;
    if (why !== undefined) {
      // Discard the module and its memory; the next hook gets a fresh one.
      qjs = await createQuickJsModule(heapCeilingBytes);
      resetLiveCounts();
      modulesBuilt++;
      recycled = why;
      if (answer.kind === 'failure') {
        answer = {
          ...answer,
          error: {
            ...answer.error,
            message: `${answer.error.message}; ${why}, so the worker's QuickJS module was replaced`,
          },
        };
      }
    }
    outcomes.push(
      r.memoryUsedBytes === undefined ? { answer } : { answer, memoryUsedBytes: r.memoryUsedBytes },
    );
    state = foldStep(task.event, state, hook, answer);
  }
  return recycled === undefined ? { outcomes } : { outcomes, recycled };
}

/** Worker state for tests and leak checks (Piscina task name `stats`). */
export function stats(): JsWorkerStats {
  return {
    threadId,
    modulesBuilt,
    tasksRun,
    heapBytes: qjs.memory.buffer.byteLength,
    ceilingBytes: qjs.ceilingBytes,
    ...liveCounts(),
  };
}
