// Runs one JS hook invocation in a fresh QuickJS runtime and context (nothing survives between
// invocations), under its deadline (interrupt handler), memory limits (soft per-runtime limit, a
// heap-growth guard, the module's hard cap) and a safe maximum stack; copies the answer out as JSON.
// Every handle is disposed in `finally`; a runtime that cannot be disposed taints the module.
import { createHash } from 'node:crypto';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import type { HookError } from '../../src/contract/error-codes.js';
import type { HookAnswer } from '../../src/contract/fold.js';
import type { JsHookTask } from '../../src/contract/js-task.js';
import { parseHookOutput } from '../../src/contract/parse-output.js';
import { PRELUDE } from './prelude.js';
import type { QuickJsModule } from './quickjs-module.js';

/** Guest stack: well under a worker's 4 MiB host stack (a larger one lets the guest overflow the host). */
export const MAX_STACK_BYTES = 512 * 1024;
/** console.* capture per invocation. */
export const MAX_LOG_LINES = 100;
export const MAX_LOG_BYTES = 16 * 1024;

export interface RunContext {
  readonly event: string;
  readonly tenant: string | undefined;
  /** The input this hook sees, as JSON (size already checked by the host). */
  readonly inputJson: string;
  readonly nowMs: number;
}

export interface RunResult {
  readonly answer: HookAnswer;
  readonly memoryUsedBytes: number | undefined;
  /** The module cannot be trusted any more (a dispose failed): the worker must be replaced. */
  readonly tainted: boolean;
}

type Failure = { kind: 'failure'; error: HookError };

let liveRuntimes = 0;
let liveContexts = 0;

/** Runtimes and contexts created and not yet disposed, in this thread's current module. */
export function liveCounts(): { liveRuntimes: number; liveContexts: number } {
  return { liveRuntimes, liveContexts };
}

/** A replaced module takes whatever it could not free with it. */
export function resetLiveCounts(): void {
  liveRuntimes = 0;
  liveContexts = 0;
}

/** Four 32-bit words from sha256(hook id, input): the seed of the guest's Math.random. */
export function seedFor(hookId: string, inputJson: string): [number, number, number, number] {
  const digest = createHash('sha256').update(hookId).update('\0').update(inputJson).digest();
  return [digest.readInt32LE(0), digest.readInt32LE(4), digest.readInt32LE(8), digest.readInt32LE(12)];
}

class Logs {
  readonly lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  add(level: string, text: string): void {
    if (this.lines.length >= MAX_LOG_LINES || this.#bytes + text.length > MAX_LOG_BYTES) {
      this.#dropped++;
      return;
    }
    this.#bytes += text.length;
    this.lines.push(level === 'log' ? text : `[${level}] ${text}`);
  }
  final(): string[] {
    return this.#dropped > 0
      ? [
          ...this.lines,
          `… ${this.#dropped} more console lines dropped (cap ${MAX_LOG_LINES} lines / ${MAX_LOG_BYTES} bytes)`,
        ]
      : this.lines;
  }
}

export function runJsHook(qjs: QuickJsModule, hook: JsHookTask, run: RunContext): RunResult {
  const started = performance.now();
  const logs = new Logs();
  const deadline = started + hook.deadlineMs;
  const startHeap = qjs.memory.buffer.byteLength;
  let interrupted: 'deadline' | 'memory' | undefined;
  let rt: QuickJSRuntime | undefined;
  let ctx: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => {
    handles.push(h);
    return h;
  };
  let outcome: Failure | { kind: 'output'; raw: string | undefined } | undefined;
  let memoryUsedBytes: number | undefined;
  let tainted = false;

  const classify = (errHandle: QuickJSHandle, phase: 'compile' | 'run' | 'output'): Failure => {
    let e: { name?: string; message?: string; stack?: string } | string;
    try {
      e = ctx!.dump(errHandle) as typeof e;
    } catch {
      e = { name: 'Error', message: 'the hook threw a value that cannot be read' };
    }
    const name = typeof e === 'object' && e !== null ? String(e.name ?? 'Error') : 'Error';
    const message = typeof e === 'object' && e !== null ? String(e.message ?? '') : String(e);
    const where =
      typeof e === 'object' && e?.stack ? / at .*?([^\s()]+:\d+(?::\d+)?)\)?/.exec(e.stack)?.[1] : undefined;
    const text = `${name}: ${message}${where !== undefined ? ` (${where})` : ''}`;
    const fail = (code: HookError['code'], m = text): Failure => ({
      kind: 'failure',
      error: { code, message: m },
    });
    // Our own flags first: they cannot be forged by the guest.
    if (interrupted === 'deadline')
      return fail('timeout', `no answer within ${hook.deadlineMs} ms (interrupted)`);
    if (interrupted === 'memory')
      return fail('memory_limit', `heap grew past memoryBytes (${hook.memoryBytes}) (interrupted)`);
    if (name === 'InternalError' && /out of memory|string too long/.test(message)) {
      return fail('memory_limit', `${text}; memoryBytes is ${hook.memoryBytes}`);
    }
    if (name === 'InternalError' && message === 'stack overflow') return fail('stack_overflow', text);
    if (name === 'RangeError' && /call stack/i.test(message)) return fail('stack_overflow', text);
    if (phase === 'compile' && name === 'SyntaxError')
      return fail('syntax_error', `${text.replace(/ \(.*\)$/, '')} at ${hook.filename}${lineOf(e)}`);
    if (phase === 'output') return fail('invalid_output', text);
    return fail('runtime_error', text);
  };

  try {
    rt = qjs.module.newRuntime();
    liveRuntimes++;
    rt.setMemoryLimit(hook.memoryBytes);
    rt.setMaxStackSize(MAX_STACK_BYTES);
    rt.setInterruptHandler(() => {
      if (performance.now() > deadline) interrupted = 'deadline';
      else if (qjs.memory.buffer.byteLength - startHeap > hook.memoryBytes) interrupted = 'memory';
      return interrupted !== undefined;
    });
    ctx = rt.newContext();
    liveContexts++;
    const c = ctx;
    const hostLog = keep(
      c.newFunction('log', (level, text) => {
        logs.add(c.getString(level), c.getString(text));
      }),
    );
    const preludeFn = c.evalCode(PRELUDE, 'hookwarden:prelude', { type: 'global' });
    if (preludeFn.error) throw new Error(`prelude failed: ${JSON.stringify(c.dump(preludeFn.error))}`);
    keep(preludeFn.value);
    const [s0, s1, s2, s3] = seedFor(hook.id, run.inputJson);
    const args = [s0, s1, s2, s3, run.nowMs].map((n) => keep(c.newNumber(n)));
    const api = c.callFunction(preludeFn.value, c.undefined, ...args, hostLog);
    if (api.error) throw new Error(`prelude failed: ${JSON.stringify(c.dump(api.error))}`);
    keep(api.value);
    const invoke = keep(c.getProp(api.value, 'invoke'));
    const finish = keep(c.getProp(api.value, 'finish'));

    outcome = (() => {
      const mod = c.evalCode(hook.code, hook.filename, { type: 'module' });
      if (mod.error) return classify(keep(mod.error), 'compile');
      let ns = keep(mod.value);
      const nsState = settle(c, rt!, ns);
      if (nsState.kind === 'rejected') return classify(keep(nsState.error), 'run');
      if (nsState.kind === 'pending') return stuck(interrupted, hook);
      ns = nsState.value === ns ? ns : keep(nsState.value);
      const inputArg = keep(c.newString(run.inputJson));
      const ctxArg = keep(
        c.newString(JSON.stringify({ hookId: hook.id, event: run.event, tenant: run.tenant ?? null })),
      );
      const called = c.callFunction(invoke, c.undefined, ns, inputArg, ctxArg);
      if (called.error) return classify(keep(called.error), 'run');
      const result = keep(called.value);
      const state = settle(c, rt!, result);
      if (state.kind === 'rejected') return classify(keep(state.error), 'run');
      if (state.kind === 'pending') return stuck(interrupted, hook);
      const value = state.value === result ? result : keep(state.value);
      const limit = keep(c.newNumber(hook.maxOutputBytes));
      const text = c.callFunction(finish, c.undefined, value, limit);
      if (text.error) return classify(keep(text.error), 'output');
      const t = keep(text.value);
      const type = c.typeof(t);
      if (type === 'undefined') return { kind: 'output', raw: undefined };
      if (type === 'number') {
        return {
          kind: 'failure',
          error: {
            code: 'output_limit',
            message: `output is ${c.getNumber(t)} characters, above maxOutputBytes (${hook.maxOutputBytes})`,
          },
        };
      }
      return { kind: 'output', raw: c.getString(t) };
    })();
    try {
      const usage = rt.computeMemoryUsage();
      memoryUsedBytes = (c.dump(usage) as { memory_used_size?: number }).memory_used_size;
      usage.dispose();
    } catch {
      // Accounting is best effort: a runtime at its memory limit may not manage it.
    }
  } catch (err) {
    outcome ??= {
      kind: 'failure',
      error: { code: 'runtime_error', message: `sandbox failure: ${(err as Error).message}` },
    };
    tainted = true;
  } finally {
    for (const h of handles.reverse()) if (h.alive) h.dispose();
    try {
      if (ctx !== undefined) {
        ctx.dispose();
        liveContexts--;
      }
      if (rt !== undefined) {
        rt.dispose();
        liveRuntimes--;
      }
    } catch {
      tainted = true;
    }
  }

  const latencyMs = performance.now() - started;
  const timing = { latencyMs, queuedMs: 0, ...(logs.lines.length > 0 ? { logs: logs.final() } : {}) };
  if (outcome === undefined || outcome.kind === 'failure') {
    const error = outcome?.error ?? { code: 'runtime_error' as const, message: 'sandbox failure' };
    return { answer: { kind: 'failure', error, ...timing }, memoryUsedBytes, tainted };
  }
  if (outcome.raw === undefined)
    return {
      answer: { kind: 'output', output: undefined, unknownFields: [], ...timing },
      memoryUsedBytes,
      tainted,
    };
  if (Buffer.byteLength(outcome.raw) > hook.maxOutputBytes) {
    const error = {
      code: 'output_limit' as const,
      message: `output is ${Buffer.byteLength(outcome.raw)} bytes, above maxOutputBytes (${hook.maxOutputBytes})`,
    };
    return { answer: { kind: 'failure', error, ...timing }, memoryUsedBytes, tainted };
  }
  const parsed = parseHookOutput(JSON.parse(outcome.raw), run.event);
  if (!parsed.ok)
    return {
      answer: { kind: 'failure', error: { code: 'invalid_output', message: parsed.message }, ...timing },
      memoryUsedBytes,
      tainted,
    };
  return {
    answer: { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields, ...timing },
    memoryUsedBytes,
    tainted,
  };
}

function lineOf(e: unknown): string {
  if (typeof e !== 'object' || e === null) return '';
  const stack = String((e as { stack?: unknown }).stack ?? '');
  const m = /:(\d+)(?::(\d+))?/.exec(stack);
  if (m !== null) return `:${m[1]}${m[2] !== undefined ? `:${m[2]}` : ''}`;
  const n = (e as { lineNumber?: unknown }).lineNumber;
  return typeof n === 'number' ? `:${n}` : '';
}

function stuck(interrupted: 'deadline' | 'memory' | undefined, hook: JsHookTask): Failure {
  if (interrupted === 'deadline')
    return {
      kind: 'failure',
      error: { code: 'timeout', message: `no answer within ${hook.deadlineMs} ms (interrupted)` },
    };
  return {
    kind: 'failure',
    error: {
      code: 'runtime_error',
      message: 'the hook returned a promise that never settles (there are no timers or I/O in the sandbox)',
    },
  };
}

type Settled =
  | { kind: 'fulfilled'; value: QuickJSHandle }
  | { kind: 'rejected'; error: QuickJSHandle }
  | { kind: 'pending' };

/** Runs pending jobs until `handle` (a promise or a plain value) settles; the interrupt handler bounds it. */
function settle(ctx: QuickJSContext, rt: QuickJSRuntime, handle: QuickJSHandle): Settled {
  for (;;) {
    const state = ctx.getPromiseState(handle);
    if (state.type === 'fulfilled') return { kind: 'fulfilled', value: state.value };
    if (state.type === 'rejected') return { kind: 'rejected', error: state.error };
    if (!rt.hasPendingJob()) return { kind: 'pending' };
    const jobs = rt.executePendingJobs();
    if (jobs.error) {
      // A job threw outside the promise (e.g. interrupted): surface it as the rejection.
      return { kind: 'rejected', error: jobs.error };
    }
  }
}
