// Runs one JS hook invocation in a fresh sandbox (a QuickJS runtime + context used once: nothing
// survives between invocations) under its deadline (interrupt handler), memory limits (soft
// per-runtime limit, a heap-growth guard, the module's hard cap) and a safe maximum stack, and copies
// the answer out as JSON. Every handle is disposed; the sandbox itself is disposed by the caller
// (off the critical path), and a sandbox that cannot be disposed taints the module.
import { createHash } from 'node:crypto';
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import {
  type ErrorCode,
  type ErrorDetails,
  type HookError,
  hookError,
} from '../../src/contract/error-codes.js';
import type { HookAnswer } from '../../src/contract/fold.js';
import type { JsHookTask } from '../../src/contract/js-task.js';
import { parseHookOutput } from '../../src/contract/parse-output.js';
import { capAnswer, capText, type TextCaps } from '../../src/contract/text-caps.js';
import { locationOf, readThrown } from './guest-text.js';
import { setClock } from './host-clock.js';
import { Logs, type Sandbox } from './sandbox.js';

export interface RunContext {
  readonly event: string;
  readonly tenant: string | undefined;
  /** The input this hook sees, and its JSON (size already checked). */
  readonly input: unknown;
  readonly inputJson: string;
  readonly nowMs: number;
  /** Report the runtime's memory use (costs ~0.2 ms per invocation). */
  readonly measureMemory?: boolean;
  /** Caps on the text the hook puts into its record (error messages, reasons, console lines). */
  readonly caps: TextCaps;
}

export interface RunResult {
  readonly answer: HookAnswer;
  readonly memoryUsedBytes: number | undefined;
}

type Failure = { kind: 'failure'; error: HookError };
type Outcome = Failure | { kind: 'output'; raw: string | undefined };

/** Four 32-bit words from sha256(hook id, input): the seed of the guest's Math.random. */
export function seedFor(hookId: string, inputJson: string): [number, number, number, number] {
  const digest = createHash('sha256').update(hookId).update('\0').update(inputJson).digest();
  return [digest.readInt32LE(0), digest.readInt32LE(4), digest.readInt32LE(8), digest.readInt32LE(12)];
}

export function runJsHook(sb: Sandbox, hook: JsHookTask, run: RunContext): RunResult {
  const r = runHook(sb, hook, run);
  // What crosses back to the host is within the caps (the host applies them again).
  const answer = capAnswer(r.answer, run.caps);
  return answer === r.answer ? r : { ...r, answer };
}

function runHook(sb: Sandbox, hook: JsHookTask, run: RunContext): RunResult {
  const started = performance.now();
  const { rt, ctx: c, qjs } = sb;
  const deadline = started + hook.deadlineMs;
  const startHeap = qjs.memory.buffer.byteLength;
  let interrupted: 'deadline' | 'memory' | undefined;
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => {
    handles.push(h);
    return h;
  };
  let memoryUsedBytes: number | undefined;

  const fail = <C extends ErrorCode>(code: C, message: string, details?: ErrorDetails[C]): Failure => ({
    kind: 'failure',
    error: hookError(code, message, details),
  });
  const interruptedFailure = (): Failure | undefined =>
    interrupted === 'deadline'
      ? fail('timeout', `no answer within ${hook.deadlineMs} ms (interrupted)`)
      : interrupted === 'memory'
        ? fail('memory_limit', `heap grew past memoryBytes (${hook.memoryBytes}) (interrupted)`)
        : undefined;
  const classify = (errHandle: QuickJSHandle, phase: 'compile' | 'run' | 'output'): Failure => {
    // Our own flags first: the guest cannot forge them. Nothing is read from the guest after them.
    const early = interruptedFailure();
    if (early !== undefined) return early;
    // Read under the deadline and within the caps: a getter that loops is a timeout, a huge message
    // never leaves the guest whole.
    const e = readThrown(sb, errHandle, run.caps.maxMessageBytes);
    const late = interruptedFailure();
    if (late !== undefined) return late;
    const { name, message } = e;
    const where = locationOf(e.stack);
    const text = capText(
      `${name}: ${message}${where !== undefined ? ` (${where})` : ''}`,
      run.caps.maxMessageBytes,
    );
    if (name === 'InternalError' && /out of memory|string too long/.test(message)) {
      return fail('memory_limit', `${text}; memoryBytes is ${hook.memoryBytes}`);
    }
    if (name === 'InternalError' && message === 'stack overflow') return fail('stack_overflow', text);
    if (name === 'RangeError' && /call stack/i.test(message)) return fail('stack_overflow', text);
    if (phase === 'compile' && name === 'SyntaxError')
      return fail(
        'syntax_error',
        capText(`${name}: ${message} at ${hook.filename}${lineOf(where)}`, run.caps.maxMessageBytes),
      );
    if (phase === 'output') return fail('invalid_output', text);
    return fail('runtime_error', text);
  };
  const stuck = (): Failure =>
    interrupted === 'deadline'
      ? fail('timeout', `no answer within ${hook.deadlineMs} ms (interrupted)`)
      : fail(
          'runtime_error',
          'the hook returned a promise that never settles (there are no timers or I/O in the sandbox)',
        );

  let outcome: Outcome;
  sb.logs = new Logs(run.caps);
  try {
    rt.setMemoryLimit(hook.memoryBytes);
    rt.setInterruptHandler(() => {
      if (performance.now() > deadline) interrupted = 'deadline';
      else if (qjs.memory.buffer.byteLength - startHeap > hook.memoryBytes) interrupted = 'memory';
      return interrupted !== undefined;
    });
    sb.random.seedWith(() => seedFor(hook.id, run.inputJson));
    setClock(run.nowMs);
    outcome = ((): Outcome => {
      const mod = c.evalCode(hook.code, hook.filename, { type: 'module' });
      if (mod.error) return classify(keep(mod.error), 'compile');
      let ns = keep(mod.value);
      const loaded = settle(sb, ns);
      if (loaded.kind === 'rejected') return classify(keep(loaded.error), 'run');
      if (loaded.kind === 'pending') return stuck();
      if (loaded.value !== ns) ns = keep(loaded.value);
      const fn = keep(c.getProp(ns, 'default'));
      if (c.typeof(fn) !== 'function') {
        return fail(
          'runtime_error',
          'the module has no default export function: write export default function (input, ctx) { ... }',
        );
      }
      const inputArg = frozenJson(sb, run.inputJson, run.input, keep);
      if ('error' in inputArg) return classify(inputArg.error, 'run');
      const ctxObj = { hookId: hook.id, event: run.event, tenant: run.tenant ?? null };
      const ctxArg = frozenJson(sb, JSON.stringify(ctxObj), ctxObj, keep);
      if ('error' in ctxArg) return classify(ctxArg.error, 'run');
      const called = c.callFunction(fn, c.undefined, inputArg.value, ctxArg.value);
      if (called.error) return classify(keep(called.error), 'run');
      const result = keep(called.value);
      const state = settle(sb, result);
      if (state.kind === 'rejected') return classify(keep(state.error), 'run');
      if (state.kind === 'pending') return stuck();
      const value = state.value === result ? result : keep(state.value);
      if (c.typeof(value) === 'undefined' || c.sameValue(value, c.null))
        return { kind: 'output', raw: undefined };
      // Serialize with the JSON.stringify captured before the hook ran.
      const text = c.callFunction(sb.stringify, sb.json, value);
      if (text.error) return classify(keep(text.error), 'output');
      const t = keep(text.value);
      if (c.typeof(t) !== 'string')
        return fail('invalid_output', `the hook returned a value that is not JSON (${c.typeof(value)})`);
      const length = c.getNumber(keep(c.getProp(t, 'length')));
      if (length > hook.maxOutputBytes) {
        return fail(
          'output_limit',
          `output is ${length} characters, above maxOutputBytes (${hook.maxOutputBytes})`,
          { limitBytes: hook.maxOutputBytes, actualBytes: length },
        );
      }
      return { kind: 'output', raw: c.getString(t) };
    })();
    if (run.measureMemory === true) {
      try {
        const usage = rt.computeMemoryUsage();
        memoryUsedBytes = (c.dump(usage) as { memory_used_size?: number }).memory_used_size;
        usage.dispose();
      } catch {
        // Best effort: a runtime at its memory limit may not manage it.
      }
    }
  } catch (err) {
    outcome = fail('runtime_error', `sandbox failure: ${capText(String((err as Error)?.message), 1024)}`);
  } finally {
    for (const h of handles.reverse()) if (h.alive) h.dispose();
  }

  const logs = sb.logs.final();
  sb.logs = undefined;
  const timing = {
    latencyMs: performance.now() - started,
    queuedMs: 0,
    ...(logs.length > 0 ? { logs } : {}),
  };
  if (outcome.kind === 'failure')
    return { answer: { kind: 'failure', error: outcome.error, ...timing }, memoryUsedBytes };
  if (outcome.raw === undefined)
    return { answer: { kind: 'output', output: undefined, unknownFields: [], ...timing }, memoryUsedBytes };
  const bytes = Buffer.byteLength(outcome.raw);
  if (bytes > hook.maxOutputBytes) {
    const error = hookError(
      'output_limit',
      `output is ${bytes} bytes, above maxOutputBytes (${hook.maxOutputBytes})`,
      { limitBytes: hook.maxOutputBytes, actualBytes: bytes },
    );
    return { answer: { kind: 'failure', error, ...timing }, memoryUsedBytes };
  }
  const toolInput = (run.input as { toolInput?: unknown } | null)?.toolInput;
  // JS hooks speak hookwarden's dialect; a seed's `modifiedInput` patches the input they saw.
  const parsed = parseHookOutput(JSON.parse(outcome.raw), run.event, { toolInput });
  if (!parsed.ok)
    return {
      answer: { kind: 'failure', error: { code: 'invalid_output', message: parsed.message }, ...timing },
      memoryUsedBytes,
    };
  return {
    answer: { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields, ...timing },
    memoryUsedBytes,
  };
}

/**
 * Parses `json` in the guest with the captured JSON.parse and deep-freezes the result. The freeze is
 * driven from the host, which holds the same value (`shape`): no guest code to compile.
 */
function frozenJson(
  sb: Sandbox,
  json: string,
  shape: unknown,
  keep: (h: QuickJSHandle) => QuickJSHandle,
): { value: QuickJSHandle } | { error: QuickJSHandle } {
  const c = sb.ctx;
  const parsed = c.callFunction(sb.parse, sb.json, keep(c.newString(json)));
  if (parsed.error) return { error: keep(parsed.error) };
  const root = keep(parsed.value);
  const stack: [QuickJSHandle, unknown][] = [[root, shape]];
  while (stack.length > 0) {
    const [handle, value] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
      const child = (value as Record<string | number, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push([keep(c.getProp(handle, key)), child]);
    }
    const frozen = c.callFunction(sb.freeze, c.undefined, handle);
    if (frozen.error) return { error: keep(frozen.error) };
    frozen.value.dispose();
  }
  return { value: root };
}

/** `:line[:col]` of a `file:line[:col]` location, or nothing. */
function lineOf(where: string | undefined): string {
  const m = where === undefined ? null : /:(\d+)(?::(\d+))?$/.exec(where);
  return m === null ? '' : `:${m[1]}${m[2] !== undefined ? `:${m[2]}` : ''}`;
}

type Settled =
  | { kind: 'fulfilled'; value: QuickJSHandle }
  | { kind: 'rejected'; error: QuickJSHandle }
  | { kind: 'pending' };

/** Runs pending jobs until `handle` (a promise or a plain value) settles; the interrupt handler bounds it. */
function settle(sb: Sandbox, handle: QuickJSHandle): Settled {
  for (;;) {
    const state = sb.ctx.getPromiseState(handle);
    if (state.type === 'fulfilled') return { kind: 'fulfilled', value: state.value };
    if (state.type === 'rejected') return { kind: 'rejected', error: state.error };
    if (!sb.rt.hasPendingJob()) return { kind: 'pending' };
    const jobs = sb.rt.executePendingJobs();
    // A job threw outside the promise (e.g. interrupted): surface it as the rejection.
    if (jobs.error) return { kind: 'rejected', error: jobs.error };
  }
}
