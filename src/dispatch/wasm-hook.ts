// Execute stage for wasm hooks: the input as the hook's dialect reads it (a command hook's stdin) →
// the wasm lane → how the call ended, read by the command protocol of the hook's dialect
// (command-protocol.ts): exit 0 with JSON on stdout, exit 2 with the reason on stderr, and so on. A
// trap is a crash (a failure; a block in FreeCode's dialect, where a crash blocks); a limit is the
// hook's failure, its onError applies. A pack's module runs from the verified bytes compiled at load
// (as a JS hook's source does), so nothing on disk is read again.
import { createHash } from 'node:crypto';
import { DIALECT_RULES } from '../contract/dialects.js';
import type { HookError } from '../contract/error-codes.js';
import type { HookAnswer } from '../contract/fold.js';
import type { WasmWorkerSpec } from '../contract/wasm-task.js';
import type { WasmHookDefinition } from '../registry/hook-definition.js';
import { blockAnswer, interpretCommand } from './command-protocol.js';
import type { HookCall } from './hook-call.js';
import { hookInputJson } from './hook-stdin.js';
import { reportWasmTiming } from './hook-timing.js';
import { refusedAnswer, withRetried } from './refused.js';

const specs = new WeakMap<WasmHookDefinition, WasmWorkerSpec>();

/** The worker-side spec of a wasm hook definition (built once per definition). */
function wasmWorkerSpec(def: WasmHookDefinition): WasmWorkerSpec {
  let spec = specs.get(def);
  if (spec !== undefined) return spec;
  const { wasm } = def;
  const fields = {
    id: def.id,
    digest: wasm.digest,
    memoryBytes: wasm.memoryBytes,
    maxOutputBytes: wasm.maxOutputBytes,
    deadlineMs: def.deadlineMs,
    fuel: wasm.fuel,
  };
  spec = Object.freeze({
    key: createHash('sha256').update(JSON.stringify(fields)).digest('base64'),
    id: def.id,
    module: wasm.module,
    maxMemoryBytes: wasm.memoryBytes,
    memoryPages: wasm.memoryPages,
    maxOutputBytes: wasm.maxOutputBytes,
    deadlineMs: def.deadlineMs,
    fuel: wasm.fuel,
  });
  specs.set(def, spec);
  return spec;
}

export async function runWasmHook(call: HookCall<WasmHookDefinition>): Promise<HookAnswer> {
  const { def, input, ctx } = call;
  const nowMs = Date.parse(input.timestamp);
  const task = {
    hook: wasmWorkerSpec(def).key,
    stdin: hookInputJson(def.wasm.claudeEvent, input, call.inputJson, def),
    nowMs: Number.isFinite(nowMs) ? nowMs : 0,
  };
  const startedAt = performance.now();
  const run = () => ctx.pool.wasm.run({ task, spec: wasmWorkerSpec(def) }, call.lane);
  let r = await run();
  let retried: HookError | undefined;
  if (
    !r.ran &&
    r.started === true &&
    r.error.code === 'worker_crashed' &&
    call.lane.signal?.aborted !== true
  ) {
    // Its worker failed under it (it was replaced): once more on a fresh one before onError applies.
    retried = r.error;
    r = await run();
  }
  if (!r.ran) return withRetried(refusedAnswer(r, 0), retried);
  const o = r.value;
  const timing = { latencyMs: o.durationMs, queuedMs: r.queuedMs + o.queuedMs, memoryBytes: o.memoryBytes };
  if (call.onTiming !== undefined)
    reportWasmTiming(call.onTiming, def.id, startedAt, r.queuedMs, o.durationMs);
  if (o.kind === 'exited') {
    const outcome = {
      kind: 'exited' as const,
      exitCode: o.exitCode,
      signal: null,
      stdout: o.stdout,
      stderr: o.stderr,
      durationMs: o.durationMs,
    };
    return withRetried({ ...interpretCommand(outcome, def, input), ...timing }, retried);
  }
  if (o.trap === true && DIALECT_RULES[def.dialect].crash === 'block') {
    // FreeCode: "a hook that crashes … blocks the tool".
    return withRetried({ ...blockAnswer(`hook failed: ${o.error.message}`, def, input), ...timing }, retried);
  }
  return withRetried({ kind: 'failure', error: o.error, ...timing }, retried);
}
