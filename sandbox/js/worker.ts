// The Piscina worker of the QuickJS lane. One QuickJS module per worker thread, with one guest
// environment (sandbox.ts) built when the worker starts; each hook is loaded once into an image of
// that memory (hook-images.ts), and every call of it starts from that image again (heap-image.ts):
// fresh state on every call without a new runtime, context or compile. After an answer is sent, the
// worker puts the last hook's image back while idle, so the next call starts at once.
//
// Hooks arrive once per worker as specs (source, limits) and tasks refer to them by key; a task whose
// specs this worker does not hold is answered `missing` and the host sends it again with them. A task
// is one hook, or a run of adjacent JS hooks of a serial chain, folded here with the host's own pure
// fold (one round trip per chain); under load a message carries several tasks.
//
// The WebAssembly memory never shrinks: a module whose memory reached its ceiling is replaced at once,
// one that grew past RECYCLE_ABOVE_BYTES once the answer is sent, so a large call leaves no lasting
// RSS behind. A hook that does not yield to its interrupt is the host's to stop: the task is aborted
// and Piscina terminates the thread.
import { getHeapStatistics } from 'node:v8';
import { threadId, workerData } from 'node:worker_threads';
import { hookError } from '../../src/contract/error-codes.js';
import { foldStep, startFold } from '../../src/contract/fold.js';
import type {
  JsBatch,
  JsBatchResult,
  JsCompileRequest,
  JsCompileResult,
  JsHookOutcome,
  JsHookSpec,
  JsTask,
  JsTaskMissing,
  JsTaskResult,
} from '../../src/contract/js-task.js';
import { capText } from '../../src/contract/text-caps.js';
import type { HookInput } from '../../src/contract/types.js';
import { compileModule } from './compile.js';
import { HookImages, imageKey } from './hook-images.js';
import { installPinnedClock } from './host-clock.js';
import { loadHook } from './load-hook.js';
import { createImagedModule, INITIAL_HEAP_BYTES } from './quickjs-module.js';
import { runJsHook } from './run-hook.js';
import { Sandbox } from './sandbox.js';
import { SpecTable } from './spec-table.js';

export interface JsWorkerData {
  /** Hard cap of this worker's QuickJS heap (the WebAssembly.Memory maximum), in bytes. */
  readonly heapCeilingBytes: number;
  /** Hook specs kept (default 4 096; tests make it small to see specs sent again). */
  readonly specCapacity?: number;
}

export interface JsWorkerStats {
  readonly threadId: number;
  /** QuickJS modules this thread built (1 + replacements). */
  readonly modulesBuilt: number;
  /** Tasks this thread ran (a serial run of JS hooks is one task). */
  readonly tasksRun: number;
  readonly heapBytes: number;
  readonly ceilingBytes: number;
  /** Hook images held, their bytes, and how many were built (each a compile of a hook's module). */
  readonly images: number;
  readonly imageBytes: number;
  readonly imagesBuilt: number;
  /** Whether the memory is, byte for byte, an image (the environment's or a hook's): no call's state is left. */
  readonly memoryIsImage: boolean;
  /** Tasks answered `missing` (the worker no longer held a spec; the host sent them again). */
  readonly missingSpecs: number;
  /** This thread's V8 heap (QuickJS's heap is the WebAssembly memory, `heapBytes`). */
  readonly v8HeapBytes: number;
  /** Runtimes and contexts alive in the module besides the sandbox's own: leaks (must be 0). */
  readonly liveRuntimes: number;
  readonly liveContexts: number;
}

/** A module whose memory grew past this is replaced after the answer is sent. */
export const RECYCLE_ABOVE_BYTES = 2 * INITIAL_HEAP_BYTES;
/** A hook whose loading took longer is not loaded again ahead of its call after a module replacement. */
const PRELOAD_MAX_MS = 20;
/** Bytes of hook images a worker keeps (least recently used ones are dropped past it). */
const IMAGE_BUDGET_BYTES = 32 * 1024 * 1024;

installPinnedClock();
const { heapCeilingBytes, specCapacity } = workerData as JsWorkerData;
let sb = new Sandbox(await createImagedModule(heapCeilingBytes));
let modulesBuilt = 1;
let tasksRun = 0;
const images = new HookImages(IMAGE_BUDGET_BYTES);
const specs = new SpecTable(specCapacity);
/** The hook called last: its image is put back while idle. */
let last: JsHookSpec | undefined;
let tidying: Promise<void> | undefined;

async function replaceModule(): Promise<void> {
  images.clear();
  sb = new Sandbox(await createImagedModule(heapCeilingBytes));
  modulesBuilt++;
}

/** Idle work after an answer was sent: give memory back, or put the last hook's image back. */
function scheduleTidy(): void {
  tidying ??= new Promise<void>((resolve) => {
    setImmediate(async () => {
      try {
        if (sb.qjs.heap.byteLength > RECYCLE_ABOVE_BYTES) {
          const previous = last === undefined ? undefined : images.get(imageKey(last));
          await replaceModule();
          // The hook called last is likely called next: load it now rather than on its call — if it
          // loads quickly (a task arriving meanwhile waits, and its backstop clock runs).
          if (last !== undefined && previous?.kind === 'loaded' && previous.loadMs < PRELOAD_MAX_MS) {
            const loaded = loadHook(sb, last, performance.now() + last.deadlineMs);
            if (loaded.cache && loaded.result.kind === 'loaded') images.set(imageKey(last), loaded.result);
          }
        }
        const hook = last === undefined ? undefined : images.get(imageKey(last));
        sb.use(hook?.kind === 'loaded' ? hook.image : sb.env);
      } finally {
        tidying = undefined;
        resolve();
      }
    });
  });
}

const ceilingNote = () => `the QuickJS heap reached its ceiling (${sb.qjs.ceilingBytes} bytes)`;

async function runTask(task: JsTask): Promise<JsTaskResult | JsTaskMissing> {
  const hooks = specs.resolve(task.hooks);
  if (!Array.isArray(hooks)) return hooks;
  tasksRun++;
  const startedAt = performance.timeOrigin + performance.now();
  const queuedMs = Math.max(0, startedAt - task.submittedAt);
  const chain = hooks.length > 1 && task.definition !== undefined ? task.definition : undefined;
  let state = chain === undefined ? undefined : startFold(JSON.parse(task.inputJson) as HookInput);
  const outcomes: JsHookOutcome[] = [];
  let recycled: string | undefined;
  for (const [i, spec] of hooks.entries()) {
    if (state?.stopped === true) {
      outcomes.push({ answer: { kind: 'not-run' } });
      continue;
    }
    // Later hooks of a chain may see a rewritten input (the host checked the first).
    const inputJson = i === 0 || state === undefined ? task.inputJson : JSON.stringify(state.input);
    const bytes = i === 0 ? 0 : Buffer.byteLength(inputJson);
    let answer: JsHookOutcome['answer'];
    let memoryUsedBytes: number | undefined;
    if (bytes > task.maxInputBytes) {
      const message = `input is ${bytes} bytes, above limits.maxInputBytes (${task.maxInputBytes})`;
      const error = hookError('input_too_large', message, {
        limitBytes: task.maxInputBytes,
        actualBytes: bytes,
      });
      answer = { kind: 'failure', error, latencyMs: 0, queuedMs: 0 };
    } else {
      const r = runJsHook(sb, images, spec, {
        ...task,
        inputJson,
        measureMemory: task.measureMemory === true,
      });
      last = spec;
      answer = r.answer;
      memoryUsedBytes = r.memoryUsedBytes;
      const why =
        sb.qjs.heap.byteLength >= sb.qjs.ceilingBytes
          ? ceilingNote()
          : r.broken === true
            ? 'the host failed while running it'
            : undefined;
      if (why !== undefined) {
        await replaceModule();
        recycled = why;
        if (answer.kind === 'failure') {
          // The hook's part of the message gives way, so the whole stays within the cap.
          const tail = `; ${why}, so the worker's QuickJS module was replaced`;
          const head = capText(answer.error.message, Math.max(0, spec.caps.maxMessageBytes - tail.length));
          answer = { ...answer, error: { ...answer.error, message: `${head}${tail}` } };
        }
      }
      if (i === 0 && answer.kind !== 'not-run') answer = { ...answer, queuedMs };
    }
    outcomes.push(memoryUsedBytes === undefined ? { answer } : { answer, memoryUsedBytes });
    if (state === undefined || chain === undefined) continue;
    const before = state.input;
    state = foldStep(chain, state, spec, answer);
    // Later hooks with filters were matched against the input before this rewrite: the host
    // matches them again against the rewritten one.
    if (state.input !== before && task.rematchAfter?.[i] === true) break;
  }
  return recycled === undefined ? { outcomes } : { outcomes, recycled };
}

/** A Piscina task: one or more JsTasks (a batch under load), answered in order. */
export default async function runBatch(batch: JsBatch): Promise<JsBatchResult> {
  if (tidying !== undefined) await tidying;
  for (const spec of batch.specs ?? []) specs.add(spec);
  const results: (JsTaskResult | JsTaskMissing)[] = [];
  for (const task of batch.tasks) results.push(await runTask(task));
  scheduleTidy();
  return { threadId, results };
}

/** Worker state for tests and leak checks (Piscina task name `stats`). */
export async function stats(): Promise<JsWorkerStats> {
  if (tidying !== undefined) await tidying;
  const held = last === undefined ? undefined : images.get(imageKey(last));
  const live = sb.leaks();
  return {
    threadId,
    modulesBuilt,
    tasksRun,
    heapBytes: sb.qjs.heap.byteLength,
    ceilingBytes: sb.qjs.ceilingBytes,
    images: images.count,
    imageBytes: images.bytes,
    imagesBuilt: images.built,
    memoryIsImage: sb.qjs.heap.matches(held?.kind === 'loaded' ? held.image : sb.env),
    missingSpecs: specs.missing,
    v8HeapBytes: getHeapStatistics().total_heap_size,
    liveRuntimes: live.runtimes,
    liveContexts: live.contexts,
  };
}

/** Compiles a hook's module without running it (Piscina task name `compile`: hookwarden validate). */
export function compile(request: JsCompileRequest): Promise<JsCompileResult> {
  return compileModule(request.code, request.filename);
}
