// The Piscina worker of the QuickJS lane. One QuickJS module per worker thread (built when the
// worker starts, so idle workers are warm); one fresh sandbox (runtime + context) per hook
// invocation, prepared while the worker is idle and disposed after the answer is sent, so neither
// is on the critical path. A task is one hook, or a run of adjacent JS hooks of a serial chain,
// folded here with the host's own pure fold (one round trip per chain); under load a message
// carries several tasks. When a hook drove the heap to
// its ceiling, or QuickJS could not free a sandbox, the module is thrown away with its
// WebAssembly.Memory and a fresh one is built (the heap never shrinks otherwise). A hook that does not
// yield to its interrupt is the host's to stop: the task is aborted and Piscina terminates the thread.
import { threadId, workerData } from 'node:worker_threads';
import { hookError } from '../../src/contract/error-codes.js';
import { foldStep, startFold } from '../../src/contract/fold.js';
import type { JsHookOutcome, JsTask, JsTaskResult } from '../../src/contract/js-task.js';
import { capText } from '../../src/contract/text-caps.js';
import { installPinnedClock } from './host-clock.js';
import { createQuickJsModule, type QuickJsModule } from './quickjs-module.js';
import { runJsHook } from './run-hook.js';
import { liveCounts, resetLiveCounts, Sandbox } from './sandbox.js';

export interface JsWorkerData {
  /** Hard cap of this worker's QuickJS heap (the WebAssembly.Memory maximum), in bytes. */
  readonly heapCeilingBytes: number;
}

export interface JsWorkerStats {
  readonly threadId: number;
  /** QuickJS modules this thread built (1 + replacements). */
  readonly modulesBuilt: number;
  /** Tasks this thread ran (a serial run of JS hooks is one task). */
  readonly tasksRun: number;
  readonly heapBytes: number;
  readonly ceilingBytes: number;
  /** Runtimes and contexts neither disposed, nor prepared or waiting for disposal: leaks (must be 0). */
  readonly liveRuntimes: number;
  readonly liveContexts: number;
}

installPinnedClock();
const { heapCeilingBytes } = workerData as JsWorkerData;
let qjs: QuickJsModule = await createQuickJsModule(heapCeilingBytes);
let modulesBuilt = 1;
let tasksRun = 0;
let spare: Sandbox | undefined = new Sandbox(qjs);
const used: Sandbox[] = [];
let tidyScheduled = false;

function takeSandbox(): Sandbox {
  const sb = spare ?? new Sandbox(qjs);
  spare = undefined;
  return sb;
}

/** Disposes used sandboxes; false when QuickJS could not free one (the module must go). */
function disposeUsed(): boolean {
  let ok = true;
  for (const sb of used.splice(0)) ok = sb.dispose() && ok;
  return ok;
}

async function replaceModule(): Promise<void> {
  spare = undefined;
  used.length = 0;
  qjs = await createQuickJsModule(heapCeilingBytes);
  resetLiveCounts();
  modulesBuilt++;
}

/** Idle work after an answer was sent: free used sandboxes, prepare the next one. */
function scheduleTidy(): void {
  if (tidyScheduled) return;
  tidyScheduled = true;
  setImmediate(() => {
    tidyScheduled = false;
    if (!disposeUsed()) {
      void replaceModule().then(() => {
        spare = new Sandbox(qjs);
      });
      return;
    }
    spare ??= new Sandbox(qjs);
  });
}

async function runTask(task: JsTask): Promise<JsTaskResult> {
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
    // The host serialized the first input already; later hooks of a chain may see a rewritten one.
    const inputJson =
      state.input === task.input && task.inputJson !== undefined
        ? task.inputJson
        : JSON.stringify(state.input);
    const bytes = Buffer.byteLength(inputJson);
    if (bytes > task.maxInputBytes) {
      const message = `input is ${bytes} bytes, above limits.maxInputBytes (${task.maxInputBytes})`;
      const answer = {
        kind: 'failure' as const,
        error: hookError('input_too_large', message, { limitBytes: task.maxInputBytes, actualBytes: bytes }),
        latencyMs: 0,
        queuedMs: 0,
      };
      outcomes.push({ answer });
      state = foldStep(task.event, state, hook, answer);
      continue;
    }
    const sb = takeSandbox();
    const r = runJsHook(sb, hook, {
      event: task.event.name,
      tenant: task.tenant,
      input: state.input,
      inputJson,
      nowMs: Number.isFinite(nowMs) ? nowMs : 0,
      measureMemory: task.measureMemory === true,
      caps: task.caps,
    });
    let answer = r.answer;
    if (answer.kind !== 'not-run' && i === 0) answer = { ...answer, queuedMs };
    const atCeiling = qjs.memory.buffer.byteLength >= qjs.ceilingBytes;
    // A sandbox whose heap hit the ceiling is freed at once (its memory is needed); others later.
    const why = atCeiling
      ? `the QuickJS heap reached its ceiling (${qjs.ceilingBytes} bytes)`
      : task.hooks.length > 1 && !sb.dispose()
        ? 'QuickJS could not free a runtime'
        : undefined;
    if (why === undefined && task.hooks.length === 1) used.push(sb);
    if (why !== undefined) {
      sb.dispose();
      await replaceModule();
      recycled = why;
      if (answer.kind === 'failure') {
        // The hook's part of the message gives way, so the whole stays within the cap.
        const tail = `; ${why}, so the worker's QuickJS module was replaced`;
        const head = capText(answer.error.message, Math.max(0, task.caps.maxMessageBytes - tail.length));
        answer = { ...answer, error: { ...answer.error, message: `${head}${tail}` } };
      }
    }
    outcomes.push(
      r.memoryUsedBytes === undefined ? { answer } : { answer, memoryUsedBytes: r.memoryUsedBytes },
    );
    const before = state.input;
    state = foldStep(task.event, state, hook, answer);
    // Later hooks with filters were matched against the input before this rewrite: the host
    // matches them again against the rewritten one.
    if (state.input !== before && hook.rematchAfter === true) break;
  }
  return recycled === undefined ? { outcomes } : { outcomes, recycled };
}

/** A Piscina task: one or more JsTasks (a batch under load), answered in order. */
export default async function runBatch(tasks: readonly JsTask[]): Promise<JsTaskResult[]> {
  const results: JsTaskResult[] = [];
  for (const task of tasks) results.push(await runTask(task));
  scheduleTidy();
  return results;
}

/** Worker state for tests and leak checks (Piscina task name `stats`). */
export function stats(): JsWorkerStats {
  const accounted = used.length + (spare === undefined ? 0 : 1);
  const live = liveCounts();
  return {
    threadId,
    modulesBuilt,
    tasksRun,
    heapBytes: qjs.memory.buffer.byteLength,
    ceilingBytes: qjs.ceilingBytes,
    liveRuntimes: live.liveRuntimes - accounted,
    liveContexts: live.liveContexts - accounted,
  };
}
