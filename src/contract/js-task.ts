// What crosses to a QuickJS worker and back (structured clone). Dependency-free.
// A hook's source and limits travel once per worker (JsHookSpec, referred to by its key afterwards);
// a task carries only the keys and the input's JSON.
import type { EventDefinition } from './events.js';
import type { FoldHook, HookAnswer } from './fold.js';
import type { TextCaps } from './text-caps.js';

/** Everything about a JS hook that does not change from call to call. */
export interface JsHookSpec extends FoldHook {
  /** Digest of every other field: what tasks refer to the spec by. */
  readonly key: string;
  readonly type: 'js';
  /** Module source: `export default function (input, ctx) { … }`. */
  readonly code: string;
  /**
   * Shown in errors and stack traces: the `source` path relative to the config file's (or pack's)
   * directory, or `<config file name>#<json path>` for inline code. Never an absolute host path.
   */
  readonly filename: string;
  readonly memoryBytes: number;
  readonly maxOutputBytes: number;
  readonly deadlineMs: number;
  /** Caps on the text the hook puts into its record: error messages, reasons, console lines. */
  readonly caps: TextCaps;
}

/** One worker task: a single JS hook, or a run of adjacent JS hooks of a serial chain. */
export interface JsTask {
  /** The event's canonical name (the hooks' `ctx.event`). */
  readonly event: string;
  /** The event's definition, for folding a chain in the worker (set when there are several hooks). */
  readonly definition?: EventDefinition;
  /** The input the first hook sees, as JSON; later hooks of a chain see the earlier rewrites. */
  readonly inputJson: string;
  /** The event's timestamp in ms: the hooks' Date.now(). */
  readonly nowMs: number;
  /** Spec keys, in order. */
  readonly hooks: readonly string[];
  /**
   * Per hook: set when a hook after it in the chain has `if` filters: if this hook rewrites the input,
   * the worker stops there, and the host matches the rest against the rewritten input.
   */
  readonly rematchAfter?: readonly boolean[];
  readonly tenant: string | undefined;
  /** Largest input JSON a later hook of the chain may be handed (the host checked the first). */
  readonly maxInputBytes: number;
  /** Report each invocation's memory use in the outcomes (costs ~0.2 ms per hook). */
  readonly measureMemory?: boolean;
  /** When the host submitted the task (ms, performance.timeOrigin + now), for queue time. */
  readonly submittedAt: number;
}

/** One message to a worker: tasks, and the specs of their hooks the worker may not have yet. */
export interface JsBatch {
  readonly tasks: readonly JsTask[];
  readonly specs?: readonly JsHookSpec[];
}

export interface JsHookOutcome {
  readonly answer: HookAnswer;
  /** Bytes the runtime held when the hook finished (QuickJS's own accounting). */
  readonly memoryUsedBytes?: number;
}

export interface JsTaskResult {
  /**
   * One per hook, in order; hooks after a deny in the chain are `not-run`. The list ends after a
   * hook with `rematchAfter` that rewrote the input: the host matches the rest again.
   */
  readonly outcomes: readonly JsHookOutcome[];
  /** Set when the worker replaced its QuickJS module after this task (heap at its ceiling, broken). */
  readonly recycled?: string;
}

/** A task the worker could not run: it does not hold these specs (the host sends it again with them). */
export interface JsTaskMissing {
  readonly missing: readonly string[];
}

/** A worker's answer to a batch, task by task. */
export interface JsBatchResult {
  /** The worker thread that ran it (it now holds the batch's specs). */
  readonly threadId: number;
  readonly results: readonly (JsTaskResult | JsTaskMissing)[];
}

/** A `compile` task (hookwarden validate): compile a hook's module without running it. */
export interface JsCompileRequest {
  readonly code: string;
  /** Shown in the error: the path the operator's report names. */
  readonly filename: string;
}

/**
 * What a compile answers: `ok`; `error`, the engine's error with file and line; `limit`, a limit
 * the compile reached (the stack; or, from the lane, the hook's deadline) rather than a fault of the
 * source's syntax.
 */
export type JsCompileResult =
  | { readonly kind: 'ok' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'limit'; readonly limit: 'stack' | 'deadline' | 'memory'; readonly message: string };
