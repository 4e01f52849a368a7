// One JS hook invocation, in three steps: load (its image, built once per worker and module:
// load-hook.ts), call (from that image: call-hook.ts) and read the output (size, JSON, the output
// contract), all under the hook's deadline, memory limits and a safe maximum stack.
import type { HookAnswer } from '../../src/contract/fold.js';
import type { JsHookSpec } from '../../src/contract/js-task.js';
import { parseHookOutput } from '../../src/contract/parse-output.js';
import { capAnswer, capText } from '../../src/contract/text-caps.js';
import { type CallInput, type CallOutcome, callHook } from './call-hook.js';
import { endCall } from './guest-call.js';
import { type HookImages, imageKey } from './hook-images.js';
import { loadHook } from './load-hook.js';
import type { Sandbox } from './sandbox.js';

export interface RunInput extends CallInput {
  /** Report the runtime's memory use (costs ~0.2 ms per invocation). */
  readonly measureMemory?: boolean;
}

export interface RunResult {
  readonly answer: HookAnswer;
  readonly memoryUsedBytes: number | undefined;
  /** The host failed while running the guest: the module can no longer be trusted. */
  readonly broken?: true;
}

export function runJsHook(sb: Sandbox, images: HookImages, spec: JsHookSpec, run: RunInput): RunResult {
  const started = performance.now();
  const deadline = started + spec.deadlineMs;
  const key = imageKey(spec);
  let memoryUsedBytes: number | undefined;
  let outcome: CallOutcome;
  let logs: string[] = [];
  let broken = false;
  try {
    let hook = images.get(key);
    if (hook === undefined) {
      const loaded = loadHook(sb, spec, deadline);
      if (loaded.cache) images.set(key, loaded.result);
      hook = loaded.result;
    }
    if (hook.kind === 'failed') {
      outcome = { kind: 'failure', error: hook.error };
      logs = hook.logs;
    } else {
      outcome = callHook(sb, hook, spec, run, deadline);
      logs = endCall(sb).final();
      if (run.measureMemory === true) memoryUsedBytes = measure(sb);
    }
  } catch (err) {
    // The guest cannot throw into the host; this is the host's own failure (its stack, an abort).
    broken = true;
    if (sb.call.logs !== undefined) logs = endCall(sb).final();
    const message = `sandbox failure: ${capText(String((err as Error)?.message), 1024)}`;
    const code = err instanceof RangeError ? 'stack_overflow' : 'runtime_error';
    outcome = { kind: 'failure', error: { code, message } };
  }
  // A handle quickjs-emscripten made and kept during the call would outlive the next restore.
  if (!broken && !sb.intact()) broken = true;
  const timing = {
    latencyMs: performance.now() - started,
    queuedMs: 0,
    ...(logs.length > 0 ? { logs } : {}),
  };
  // What crosses back to the host is within the caps (the host applies them again).
  const answer = capAnswer(answerOf(outcome, spec, run, timing), spec.caps);
  return broken ? { answer, memoryUsedBytes, broken: true } : { answer, memoryUsedBytes };
}

function measure(sb: Sandbox): number | undefined {
  try {
    const usage = sb.memoryUsage();
    return (sb.ctx.dump(usage) as { memory_used_size?: number }).memory_used_size;
  } catch {
    // Best effort: a runtime at its memory limit may not manage it.
    return undefined;
  }
}

type Timing = { latencyMs: number; queuedMs: number; logs?: string[] };

/** The answer of a call's outcome: a failure, or its JSON checked for size and against the contract. */
function answerOf(outcome: CallOutcome, spec: JsHookSpec, run: CallInput, timing: Timing): HookAnswer {
  if (outcome.kind === 'failure') return { kind: 'failure', error: outcome.error, ...timing };
  if (outcome.raw === undefined) return { kind: 'output', output: undefined, unknownFields: [], ...timing };
  const bytes = Buffer.byteLength(outcome.raw);
  if (bytes > spec.maxOutputBytes) {
    const message = `output is ${bytes} bytes, above maxOutputBytes (${spec.maxOutputBytes})`;
    const details = { limitBytes: spec.maxOutputBytes, actualBytes: bytes };
    return { kind: 'failure', error: { code: 'output_limit', message, details }, ...timing };
  }
  // JS hooks speak hookwarden's dialect; a seed's `modifiedInput` patches the input they saw (parsed
  // again only for an answer that names it: the hot path does not pay for it).
  const toolInput = outcome.raw.includes('"modifiedInput"')
    ? (JSON.parse(run.inputJson) as { toolInput?: unknown } | null)?.toolInput
    : undefined;
  const parsed = parseHookOutput(JSON.parse(outcome.raw), run.event, { toolInput });
  if (!parsed.ok)
    return { kind: 'failure', error: { code: 'invalid_output', message: parsed.message }, ...timing };
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields, ...timing };
}
