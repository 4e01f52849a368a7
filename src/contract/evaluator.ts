// Prompt and agent hooks (Claude Code's `type: "prompt"` / `"agent"`) are answered by code the
// embedding platform registers: `createExecutor({ evaluators: { prompt, agent } })`. hookwarden
// runs no model itself; it hands the evaluator a frozen view of the hook and the input, under the
// hook's deadline, and validates the answer like any hook's.
import type { HookInput, HookOutput, Scope } from './types.js';

/** The hook types an evaluator answers. */
export type EvaluatorType = 'prompt' | 'agent';

/** What an evaluator is told about the hook (frozen). */
export interface EvaluatorHook {
  /** The hook's id (its `name`, or one derived from its content), as in its record. */
  readonly id: string;
  readonly type: EvaluatorType;
  /** Canonical event name (`BeforeTool`, `AfterTurn`, …). */
  readonly event: string;
  /** The Claude Code event name the hook was registered under (`PreToolUse`, `Stop`, …), if any. */
  readonly claudeEvent: string | undefined;
  readonly scope: Scope;
  /**
   * The hook's `prompt`, as written. Claude Code replaces `$ARGUMENTS` with the input JSON
   * (`ctx.inputJson`), and appends it when the prompt has no `$ARGUMENTS`: that is the evaluator's job.
   */
  readonly prompt: string;
  /** The hook's `model`, if given. */
  readonly model: string | undefined;
  /** Claude Code's `continueOnBlock`, if given. */
  readonly continueOnBlock: boolean | undefined;
  /** The hook's configured timeout, in ms. */
  readonly timeoutMs: number;
  /** The effective deadline, in ms: `ctx.signal` aborts when it passes. */
  readonly deadlineMs: number;
  /** Where the hook was declared: `<file>: <json path>`. */
  readonly origin: string;
}

/** What an evaluator gets besides the hook and the input. */
export interface EvaluatorContext {
  /** Aborts at the hook's deadline, when the dispatch is aborted and when the executor closes. */
  readonly signal: AbortSignal;
  /** The input as JSON, exactly as a command hook registered for the event reads it on stdin. */
  readonly inputJson: string;
}

/**
 * Answers one prompt or agent hook. The answer is read like a command hook's JSON stdout:
 * hookwarden's HookOutput, or Claude Code's shape (`{ decision: "block", reason }` is a deny, or
 * "keep working" on Stop); `undefined` means "no opinion". A throw is the hook's `runtime_error`,
 * no answer by the deadline its `timeout`; its `onError` then applies.
 */
export type HookEvaluator = (
  hook: EvaluatorHook,
  input: Readonly<HookInput>,
  ctx: EvaluatorContext,
) => HookOutput | undefined | Promise<HookOutput | undefined>;

/** createExecutor's `evaluators` option: one evaluator per hook type the platform answers. */
export interface Evaluators {
  readonly prompt?: HookEvaluator | undefined;
  readonly agent?: HookEvaluator | undefined;
}
