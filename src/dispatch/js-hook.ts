// Execute stage for JS hooks: one hook, or a run of adjacent JS hooks of a serial chain, as one task
// on the QuickJS lane (one round trip; the worker folds the run with the same pure fold).

import { TEXT_CAPS } from '../config/defaults.js';
import type { EventDefinition } from '../contract/events.js';
import type { HookAnswer } from '../contract/fold.js';
import type { JsHookTask } from '../contract/js-task.js';
import { toPlainJson } from '../contract/plain-json.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import type { HookPool } from '../pool/pool.js';
import type { JsHookDefinition } from '../registry/hook-definition.js';
import { refusedAnswer } from './refused.js';

export interface JsContext {
  readonly pool: HookPool;
  readonly signal: AbortSignal | undefined;
  readonly tenant: string | undefined;
  readonly maxInputBytes: number;
  /** Report each runtime's memory use (for audit records; costs ~0.2 ms per hook). */
  readonly measureMemory: boolean;
  /** Called when the task actually starts. */
  readonly onStart: (() => void) | undefined;
}

export function jsHookTask(def: JsHookDefinition, rematchAfter = false): JsHookTask {
  const { js } = def;
  return {
    ...(rematchAfter ? { rematchAfter: true as const } : {}),
    id: def.id,
    type: 'js',
    scope: def.scope,
    onError: def.onError,
    code: js.code,
    filename: js.filename,
    memoryBytes: js.memoryBytes,
    maxOutputBytes: js.maxOutputBytes,
    deadlineMs: def.deadlineMs,
  };
}

/**
 * Runs `defs` (all JS) in order on one worker; returns one answer per hook run, in order — fewer
 * than `defs` when a hook rewrote the input (the host matches the rest again).
 */
export async function runJsHooks(
  event: EventDefinition,
  defs: readonly JsHookDefinition[],
  input: HookInput,
  inputJson: string,
  ctx: JsContext,
  rematchAfter: readonly boolean[] = [],
): Promise<HookAnswer[]> {
  const task = {
    event,
    input,
    inputJson,
    hooks: defs.map((d, i) => jsHookTask(d, rematchAfter[i] === true)),
    tenant: ctx.tenant,
    maxInputBytes: ctx.maxInputBytes,
    caps: TEXT_CAPS,
    measureMemory: ctx.measureMemory,
    submittedAt: 0,
  };
  const started = performance.now();
  const r = await ctx.pool.js.run(task, { signal: ctx.signal, tenant: ctx.tenant, onStart: ctx.onStart });
  if (r.ran) {
    return r.value.outcomes.map((o, i) => {
      let answer = o.answer;
      // Structured clone rebuilt the worker's null-prototype objects as plain ones: copy them again.
      if (answer.kind === 'output' && answer.output !== undefined)
        answer = { ...answer, output: toPlainJson(answer.output) as HookOutput };
      if (o.memoryUsedBytes !== undefined && answer.kind !== 'not-run')
        answer = { ...answer, memoryBytes: o.memoryUsedBytes };
      if (i === 0 && answer.kind !== 'not-run')
        answer = { ...answer, queuedMs: answer.queuedMs + r.queuedMs };
      return answer;
    });
  }
  const answer = refusedAnswer(r, performance.now() - started - r.queuedMs);
  return defs.map(() => answer);
}
