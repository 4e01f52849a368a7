// The daemon's answer to one hook call: exactly what `hookwarden <agent>` would print in the caller's
// process, step for step (adapter/run-adapter.ts, full-dispatch.ts): the input read as the agent's
// (its spec), a config that routes through an adapter refused, the no-hook-can-match fast path,
// then the dispatch on the warm executor, with the caller's environment for the hooks, the caller's
// session-env file and the caller's --timeout. Only the configuration is the daemon's, and it was
// checked to be the caller's (identity and digests) before this runs.
import { formatDiagnostic } from '../../../config/diagnostics.js';
import type { Executor } from '../../../executor/executor.js';
import { failureAnswer, toCliAnswer } from '../../adapter/answer.js';
import { checkRouting, scanInput } from '../../adapter/run-adapter.js';
import type { AdapterInput, AdapterSpec } from '../../adapter/spec.js';
import type { CliAnswer } from '../../one-dispatch.js';
import { UsageError } from '../../usage-error.js';
import { explain, refusedJsonc } from '../dispatch-answer.js';
import type { AdapterFlags } from '../flags.js';
import { InputProblem, MAX_STDIN_BYTES } from '../input.js';
import { nothingCanRun } from '../quick-scan.js';

export interface CallSpec {
  /** The agent's adapter the call is for. */
  readonly spec: AdapterSpec;
  /** The caller's flags, paths absolute (identity.ts). */
  readonly flags: AdapterFlags;
  /** The hook input, as read from the caller's stdin. */
  readonly input: Buffer;
  /** The caller's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** What is left of the caller's --timeout (undefined: none). */
  readonly deadlineMs: number | undefined;
  /** Reads a config file as readScannable does (the daemon's memo: daemon-host.ts). */
  readonly read?: (path: string) => Record<string, unknown> | undefined;
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

/** The input, read as the agent's adapter reads it from stdin (readInput in run-adapter.ts). */
function readCall(call: CallSpec): AdapterInput {
  const { spec, flags } = call;
  // As readCapped refuses it on stdin (hookwarden-client sends no more; another client might).
  if (call.input.length > MAX_STDIN_BYTES)
    throw new InputProblem(
      `the input on stdin is larger than ${MAX_STDIN_BYTES} bytes (limits.maxInputBytes)`,
      flags.event,
    );
  const text = call.input.toString('utf8');
  if (text.trim() === '')
    throw new InputProblem(`no input on stdin: ${spec.title} pipes each hook its event as JSON`, flags.event);
  return spec.read(text, flags);
}

async function answerFor(executor: Executor, call: CallSpec, ran: string[]): Promise<CliAnswer> {
  const { spec, flags, env } = call;
  const debug = env.HOOKWARDEN_DEBUG === '1';
  let event: string | undefined = flags.event;
  const fail = (err: unknown) => failureAnswer(spec, event, err, debug);
  let read: AdapterInput;
  try {
    read = readCall(call);
    event = read.event;
  } catch (err) {
    const named = (err as { event?: unknown }).event;
    if (typeof named === 'string') event = named;
    return fail(err);
  }
  const routing = checkRouting(flags, call.read);
  if (routing.refusal !== undefined) return fail(new UsageError(routing.refusal));
  const passthrough = { event: read.dispatchEvent, decision: 'passthrough' as const, hooks: [] };
  if (nothingCanRun(flags, read.dispatchEvent, scanInput(read.input), call.read))
    return toCliAnswer(spec, spec.answer(read, passthrough, flags), [], env);
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
    const result = await executor.dispatch(read.dispatchEvent, read.input, { signal: abort.signal, env });
    for (const h of result.hooks) if (h.outcome !== 'not-run') ran.push(h.type);
    const why = result.interrupted === true && abort.signal.aborted ? 'deadline' : undefined;
    // The load's warnings, as the one-shot adapter collects them while it loads.
    const warnings = executor.diagnostics.map((d) => `hookwarden: ${d.severity}: ${formatDiagnostic(d)}`);
    return toCliAnswer(spec, spec.answer(read, explain(result, why, flags), flags), warnings, env);
  } catch (err) {
    return fail(err);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
