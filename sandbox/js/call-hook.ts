// Calling a loaded JS hook: put its image in memory (unless it is there untouched), hand it the input
// and ctx (parsed and deep-frozen by the prelude), wait for its promise, and turn its answer into
// JSON with the JSON.stringify captured before any hook code ran.
import type { HookError } from '../../src/contract/error-codes.js';
import type { JsHookSpec } from '../../src/contract/js-task.js';
import { beginCall, failureOf, grewPastLimit, logsFor, settle, stuckFailure } from './guest-call.js';
import type { LoadedHook } from './hook-images.js';
import type { Sandbox } from './sandbox.js';
import { seedFor } from './seeded-random.js';

export interface CallInput {
  readonly event: string;
  readonly tenant: string | undefined;
  readonly inputJson: string;
  readonly nowMs: number;
}

/** The answer as JSON (`undefined`: the hook returned nothing), or why there is none. */
export type CallOutcome = { kind: 'output'; raw: string | undefined } | { kind: 'failure'; error: HookError };

export function callHook(
  sb: Sandbox,
  hook: LoadedHook,
  spec: JsHookSpec,
  call: CallInput,
  deadline: number,
): CallOutcome {
  const c = sb.ctx;
  const limits = { ...spec, maxMessageBytes: spec.caps.maxMessageBytes };
  const fail = (error: HookError): CallOutcome => ({ kind: 'failure', error });
  sb.use(hook.image);
  beginCall(sb, {
    deadline,
    memoryBytes: spec.memoryBytes,
    nowMs: call.nowMs,
    seed: () => seedFor(spec.id, call.inputJson),
    logs: logsFor(spec.caps, hook.setupLogs),
  });
  const ctxJson = JSON.stringify({ hookId: spec.id, event: call.event, tenant: call.tenant ?? null });
  const called = c.callFunction(
    sb.invoke,
    c.undefined,
    hook.fn,
    c.newString(call.inputJson),
    c.newString(ctxJson),
  );
  if (called.error) return fail(failureOf(sb, called.error, 'run', limits));
  const state = settle(sb, called.value);
  if (state.kind === 'rejected') return fail(failureOf(sb, state.error, 'run', limits));
  if (state.kind === 'pending') return fail(stuckFailure(sb, limits));
  const out = c.callFunction(sb.output, c.undefined, state.value, c.newNumber(spec.maxOutputBytes));
  if (out.error) return fail(failureOf(sb, out.error, 'output', limits));
  const grew = grewPastLimit(sb, limits);
  if (grew !== undefined) return fail(grew);
  const type = c.typeof(out.value);
  if (type === 'undefined') return { kind: 'output', raw: undefined };
  if (type === 'string') return { kind: 'output', raw: c.getString(out.value) };
  if (type === 'number') {
    const length = c.getNumber(out.value);
    return fail({
      code: 'output_limit',
      message: `output is ${length} characters, above maxOutputBytes (${spec.maxOutputBytes})`,
      details: { limitBytes: spec.maxOutputBytes, actualBytes: length },
    });
  }
  return fail({
    code: 'invalid_output',
    message: `the hook returned a value that is not JSON (${c.typeof(state.value)})`,
  });
}
