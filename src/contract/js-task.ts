// What crosses to a QuickJS worker and back (structured clone). Dependency-free.
import type { EventDefinition } from './events.js';
import type { FoldHook, HookAnswer } from './fold.js';
import type { TextCaps } from './text-caps.js';
import type { HookInput } from './types.js';

export interface JsHookTask extends FoldHook {
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
  /**
   * Set when a hook after this one in the chain has `if` filters: if this hook rewrites the input,
   * the worker stops there, and the host matches the rest against the rewritten input.
   */
  readonly rematchAfter?: true;
}

/** One worker task: a single JS hook, or a run of adjacent JS hooks of a serial chain. */
export interface JsTask {
  readonly event: EventDefinition;
  /** The input the first hook sees; later hooks of a chain see the earlier rewrites. */
  readonly input: HookInput;
  /** `input` as JSON, when the host has it already. */
  readonly inputJson?: string;
  readonly hooks: readonly JsHookTask[];
  readonly tenant: string | undefined;
  /** Largest input JSON a hook of the chain may be handed (later hooks see rewritten inputs). */
  readonly maxInputBytes: number;
  /** Caps on the text a hook puts into its record: error messages, reasons, console lines. */
  readonly caps: TextCaps;
  /** Report each runtime's memory use in the outcomes (costs ~0.2 ms per hook). */
  readonly measureMemory?: boolean;
  /** When the host submitted the task (ms, performance.timeOrigin + now), for queue time. */
  readonly submittedAt: number;
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
  /** Set when the worker retires itself after this task (heap at its ceiling, or a broken module). */
  readonly recycled?: string;
}
