// What crosses to a wasm worker and back (structured clone; a WebAssembly.Module is shared, not
// copied). Dependency-free. A hook's compiled module and limits travel once per worker (WasmWorkerSpec,
// referred to by its key afterwards); a task carries the key, the stdin bytes and the clock.
import type { HookError } from './error-codes.js';

/** Everything about a wasm hook that does not change from call to call. */
export interface WasmWorkerSpec {
  /** Digest of the module and every other field: what tasks refer to the spec by. */
  readonly key: string;
  /** The hook id (random_get's seed). */
  readonly id: string;
  /** The module as prepared (checked, capped, instrumented) and compiled once per digest. */
  readonly module: WebAssembly.Module;
  /** The memory cap (the module's memory maximum), in bytes. */
  readonly maxMemoryBytes: number;
  /** The memory the module declares (pages of 64 KiB) and may grow to; undefined: it has none. */
  readonly memoryPages: { readonly initial: number; readonly maximum: number } | undefined;
  /** Cap of stdout and of stderr, each, in bytes. */
  readonly maxOutputBytes: number;
  readonly deadlineMs: number;
  /** Instructions the call may run (an upper bound per loop iteration and call); undefined: unmetered. */
  readonly fuel: number | undefined;
}

/** One call of one wasm hook. */
export interface WasmTask {
  readonly hook: string;
  /** What the module reads on stdin: the input as its dialect reads it. */
  readonly stdin: string;
  /** The event's timestamp in ms: every clock. */
  readonly nowMs: number;
  /** When the host submitted the task (ms, performance.timeOrigin + now), for queue time. */
  readonly submittedAt: number;
}

/** One message to a worker: tasks, and the specs of their hooks the worker may not hold yet. */
export interface WasmBatch {
  readonly tasks: readonly WasmTask[];
  readonly specs?: readonly WasmWorkerSpec[];
}

/** How a call ended, before the command protocol (exit 2 = deny, …) is applied on the host. */
export type WasmOutcome =
  | {
      readonly kind: 'exited';
      readonly exitCode: number;
      readonly stdout: string;
      readonly stderr: string;
      readonly durationMs: number;
      readonly queuedMs: number;
      /** Bytes of memory the instance had when it ended. */
      readonly memoryBytes: number;
      /** Fuel used, when metered. */
      readonly fuelUsed?: number;
    }
  | {
      /** A trap, a limit, or a module that could not be instantiated: the hook's failure. */
      readonly kind: 'failed';
      readonly error: HookError;
      readonly stderr: string;
      readonly durationMs: number;
      readonly queuedMs: number;
      readonly memoryBytes: number;
      /** A trap (the module's own fault): read like a crash in the hook's dialect. */
      readonly trap?: true;
    };

/** A task the worker could not run: it does not hold this spec (the host sends it again with it). */
export interface WasmTaskMissing {
  readonly missing: readonly string[];
}

/** A worker's answer to a batch, task by task. */
export interface WasmBatchResult {
  readonly threadId: number;
  readonly results: readonly (WasmOutcome | WasmTaskMissing)[];
}
