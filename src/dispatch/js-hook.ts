// Execute stage for JS hooks: one hook, or a run of adjacent JS hooks of a serial chain, as one task
// on the QuickJS lane (one round trip; the worker folds the run with the same pure fold). The task
// carries the input's JSON and the hooks' spec keys; the specs themselves (source, limits) are built
// once per hook definition and sent to each worker once by the lane.

import { createHash } from 'node:crypto';
import { TEXT_CAPS } from '../config/defaults.js';
import type { HookError } from '../contract/error-codes.js';
import type { HookAnswer } from '../contract/fold.js';
import type { JsHookSpec, JsTask } from '../contract/js-task.js';
import { nullPrototypeCopy } from '../contract/plain-json.js';
import type { HookOutput } from '../contract/types.js';
import type { JsHookDefinition } from '../registry/hook-definition.js';
import type { HookCall } from './hook-call.js';
import { reportJsTiming } from './hook-timing.js';
import { refusedAnswer, withRetried } from './refused.js';

const specs = new WeakMap<JsHookDefinition, JsHookSpec>();

/** The worker-side spec of a JS hook definition (built once per definition). */
function jsHookSpec(def: JsHookDefinition): JsHookSpec {
  let spec = specs.get(def);
  if (spec !== undefined) return spec;
  const { js } = def;
  const fields = {
    id: def.id,
    type: 'js' as const,
    scope: def.scope,
    onError: def.onError,
    code: js.code,
    filename: js.filename,
    memoryBytes: js.memoryBytes,
    maxOutputBytes: js.maxOutputBytes,
    deadlineMs: def.deadlineMs,
    caps: TEXT_CAPS,
  };
  const key = createHash('sha256').update(JSON.stringify(fields)).digest('base64');
  spec = Object.freeze({ key, ...fields });
  specs.set(def, spec);
  return spec;
}

/**
 * Runs `defs` (all JS, of the scope of `call.def`, the first) in order on one worker; returns one
 * answer per hook run, in order — fewer than `defs` when a hook rewrote the input (the host matches
 * the rest again).
 */
export async function runJsHooks(
  call: HookCall<JsHookDefinition>,
  defs: readonly JsHookDefinition[],
  rematchAfter: readonly boolean[] = [],
): Promise<HookAnswer[]> {
  const { event, ctx, lane } = call;
  const hookSpecs = defs.map(jsHookSpec);
  const nowMs = Date.parse(call.input.timestamp);
  // Each runtime's memory use, for audit records and hook.completed (costs ~0.2 ms per hook).
  const measureMemory = ctx.audit !== undefined || ctx.events?.has('hook.completed') === true;
  const task: JsTask = {
    event: event.name,
    ...(defs.length > 1 ? { definition: event } : {}),
    inputJson: call.inputJson,
    nowMs: Number.isFinite(nowMs) ? nowMs : 0,
    hooks: hookSpecs.map((s) => s.key),
    ...(rematchAfter.includes(true) ? { rematchAfter } : {}),
    // What the hook's context names: no tenant for a dispatch without one.
    tenant: call.tenant === '' ? undefined : call.tenant,
    maxInputBytes: call.limits.maxInputBytes,
    ...(measureMemory ? { measureMemory: true } : {}),
    submittedAt: 0,
  };
  const started = performance.now();
  const run = () => ctx.pool.js.run({ task, specs: hookSpecs }, lane);
  let r = await run();
  let retried: HookError | undefined;
  if (!r.ran && r.started === true && r.error.code === 'worker_crashed' && lane.signal?.aborted !== true) {
    // Its worker failed under it (it was replaced): once more on a fresh one before onError applies.
    retried = r.error;
    r = await run();
  }
  if (r.ran) {
    if (call.onTiming !== undefined) reportJsTiming(call.onTiming, defs, r.value, r.queuedMs, started);
    return r.value.outcomes.map((o, i) => {
      let answer = o.answer;
      // Structured clone rebuilt the worker's null-prototype objects as plain ones: copy them again.
      // The worker checked the hook's answer already; a patch merged over the tool input keeps the
      // input's keys (and depth), as with every other hook type.
      if (answer.kind === 'output' && answer.output !== undefined)
        answer = { ...answer, output: nullPrototypeCopy(answer.output) as HookOutput };
      if (o.memoryUsedBytes !== undefined && answer.kind !== 'not-run')
        answer = { ...answer, memoryBytes: o.memoryUsedBytes };
      if (i === 0 && answer.kind !== 'not-run')
        answer = { ...answer, queuedMs: answer.queuedMs + r.queuedMs };
      return withRetried(answer, retried);
    });
  }
  const answer = withRetried(refusedAnswer(r, performance.now() - started - r.queuedMs), retried);
  return defs.map(() => answer);
}
