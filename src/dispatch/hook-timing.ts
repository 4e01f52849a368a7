// Where one hook task's time went, for `hookwarden bench`'s stage split: reported through the
// optional `onHookTiming` callback of a dispatch, after the task ends. Costs nothing when unset.
import type { CommandOutcome } from '../contract/command-task.js';
import type { JsTaskResult } from '../contract/js-task.js';

/**
 * One task handed to a lane: a command hook, a wasm hook, or one JS hook or a run of adjacent JS
 * hooks sent to a worker together. Times in ms (`performance.now()` clock for `startedAt`/`endedAt`).
 */
export interface HookTiming {
  /** The hooks the task ran, in order (a JS run may hold several). */
  readonly hookIds: readonly string[];
  readonly type: 'command' | 'js' | 'wasm';
  /** When the task was handed to its lane, and when its answer was back on the dispatching thread. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Waiting for a turn: the fair scheduler and the lane's slots. */
  readonly queueMs: number;
  /**
   * Getting there and back. JS and wasm: the message to the worker thread and back (structured
   * clone) and the worker's work around the isolate calls (wasm: the module's run is the instance's
   * making and `_start`). Command: the scratch directory, fork/exec of the
   * launcher, and the clean-up after exit.
   */
  readonly transportMs: number;
  /** Each hook's own run (its record's `latencyMs`), in `hookIds` order; shorter when a chain stopped. */
  readonly runMs: readonly number[];
}

/** Receives the timing of every task of one dispatch (set through `DispatchOptions.onHookTiming`). */
export type HookTimingListener = (timing: HookTiming) => void;

/** Hands a timing to the caller's listener; a listener that throws does not fail the dispatch. */
function deliver(onTiming: HookTimingListener, timing: HookTiming): void {
  try {
    onTiming(timing);
  } catch {
    // Diagnostic data only: the hook's answer matters more than the listener.
  }
}

/** A command hook: its turn, the spawn around the process, and the process's own run. */
export function reportCommandTiming(
  onTiming: HookTimingListener,
  hookId: string,
  startedAt: number,
  queueMs: number,
  outcome: CommandOutcome,
): void {
  const endedAt = performance.now();
  const spawnMs = outcome.kind === 'exited' ? (outcome.spawnMs ?? 0) : 0;
  const around = Math.max(0, endedAt - startedAt - queueMs - outcome.durationMs);
  deliver(onTiming, {
    hookIds: [hookId],
    type: 'command',
    startedAt,
    endedAt,
    queueMs,
    transportMs: around + spawnMs,
    runMs: [Math.max(0, outcome.durationMs - spawnMs)],
  });
}

/** A wasm hook: its turn, the round trip to its worker, and the call's own run. */
export function reportWasmTiming(
  onTiming: HookTimingListener,
  hookId: string,
  startedAt: number,
  queueMs: number,
  runMs: number,
): void {
  const endedAt = performance.now();
  deliver(onTiming, {
    hookIds: [hookId],
    type: 'wasm',
    startedAt,
    endedAt,
    queueMs,
    transportMs: Math.max(0, endedAt - startedAt - queueMs - runMs),
    runMs: [runMs],
  });
}

/** A JS task: the lane's wait, the round trip around the isolate calls, and each hook's own run. */
export function reportJsTiming(
  onTiming: HookTimingListener,
  hooks: readonly { readonly id: string }[],
  result: JsTaskResult,
  queueMs: number,
  startedAt: number,
): void {
  const endedAt = performance.now();
  const runMs = result.outcomes.flatMap((o) => (o.answer.kind === 'not-run' ? [] : [o.answer.latencyMs]));
  const ran = runMs.reduce((a, b) => a + b, 0);
  deliver(onTiming, {
    hookIds: hooks.slice(0, runMs.length).map((h) => h.id),
    type: 'js',
    startedAt,
    endedAt,
    queueMs,
    transportMs: Math.max(0, endedAt - startedAt - queueMs - ran),
    runMs,
  });
}
