// The daemon's answer to one hook call: exactly what `hookwarden claude-code` would print in the
// caller's process, step for step (adapter.ts, full-dispatch.ts): the input checked, a config that
// routes through the adapter refused, the no-hook-can-match fast path, then the dispatch on the warm
// executor, with the caller's environment for the hooks, the caller's CLAUDE_ENV_FILE for the
// session variables and the caller's --timeout. Only the configuration is the daemon's, and it was
// checked to be the caller's (identity and digests) before this runs.
import { formatDiagnostic } from '../../../config/diagnostics.js';
import { toClaudeCodeAnswer } from '../../../contract/claude-code-answer.js';
import type { Executor } from '../../../executor/executor.js';
import type { CliAnswer } from '../../one-dispatch.js';
import { UsageError } from '../../usage-error.js';
import { checkRouting } from '../adapter.js';
import { failureAnswer, toCliAnswer } from '../answer-io.js';
import { explain, refusedJsonc } from '../dispatch-answer.js';
import type { AdapterFlags } from '../flags.js';
import { checkClaudeCodeInput, InputProblem, MAX_STDIN_BYTES } from '../input.js';
import { nothingCanRun } from '../quick-scan.js';

export interface CallSpec {
  /** The caller's flags, paths absolute (identity.ts). */
  readonly flags: AdapterFlags;
  /** The hook input, as read from the caller's stdin. */
  readonly input: Buffer;
  /** The caller's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** What is left of the caller's --timeout (undefined: none). */
  readonly deadlineMs: number | undefined;
}

/** The answer, and the types of the hooks that ran for it (for the daemon's timings). */
export interface CallAnswer {
  readonly answer: CliAnswer;
  readonly ran: readonly string[];
}

export async function answerCall(executor: Executor, call: CallSpec): Promise<CallAnswer> {
  const ran: string[] = [];
  const answer = await answerFor(executor, call, ran);
  return { answer, ran };
}

async function answerFor(executor: Executor, call: CallSpec, ran: string[]): Promise<CliAnswer> {
  const { flags, env } = call;
  const debug = env.HOOKWARDEN_DEBUG === '1';
  const envFile = env.CLAUDE_ENV_FILE;
  let event: string | undefined;
  const fail = (err: unknown) => failureAnswer(event, err, debug);
  let input: Record<string, unknown>;
  try {
    // As readCapped refuses it on stdin (hookwarden-client sends no more; another client might).
    if (call.input.length > MAX_STDIN_BYTES)
      throw new InputProblem(
        `the input on stdin is larger than ${MAX_STDIN_BYTES} bytes (limits.maxInputBytes)`,
      );
    ({ event, input } = checkClaudeCodeInput(call.input.toString('utf8')));
  } catch (err) {
    if (err instanceof InputProblem) event = err.event;
    return fail(err);
  }
  const routing = checkRouting(flags);
  if (routing.refusal !== undefined) return fail(new UsageError(routing.refusal));
  if (nothingCanRun(flags, event, input))
    return toCliAnswer(toClaudeCodeAnswer(event, { event, decision: 'passthrough', hooks: [] }), [], envFile);
  const refusal = await refusedJsonc(routing.unparsed);
  if (refusal !== undefined) return fail(new UsageError(refusal));
  if (call.deadlineMs !== undefined && call.deadlineMs <= 0)
    return fail(new UsageError(`no verdict within --timeout ${flags.timeout} s`));
  const abort = new AbortController();
  const timer =
    call.deadlineMs === undefined
      ? undefined
      : setTimeout(() => abort.abort(new Error('deadline')), call.deadlineMs);
  try {
    const result = await executor.dispatch(event, input, { signal: abort.signal, env });
    for (const h of result.hooks) if (h.outcome !== 'not-run') ran.push(h.type);
    const why = result.interrupted === true && abort.signal.aborted ? 'deadline' : undefined;
    // The load's warnings, as the one-shot adapter collects them while it loads.
    const warnings = executor.diagnostics.map((d) => `hookwarden: ${d.severity}: ${formatDiagnostic(d)}`);
    return toCliAnswer(toClaudeCodeAnswer(event, explain(result, why, flags)), warnings, envFile);
  } catch (err) {
    return fail(err);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
