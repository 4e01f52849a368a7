// Execute stage for prompt and agent hooks: the platform's evaluator for the hook's type is called on
// the trusted lane (under the hook's deadline, aborted with the dispatch and on close), with a frozen
// view of the hook and the input a command hook registered for the event would read. Its answer is
// validated like any hook's; a throw or a missed deadline is the hook's failure.
import { hookError } from '../contract/error-codes.js';
import type { EvaluatorHook } from '../contract/evaluator.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { HookInput } from '../contract/types.js';
import type { EvaluatorHookDefinition } from '../registry/hook-definition.js';
import { inProcessAnswer } from './hook-answer.js';
import type { HookCall } from './hook-call.js';
import { hookInputJson } from './hook-stdin.js';

const VIEWS = new WeakMap<EvaluatorHookDefinition, EvaluatorHook>();

/** What the evaluator is told about the hook (built once per definition, frozen). */
function evaluatorView(def: EvaluatorHookDefinition): EvaluatorHook {
  let view = VIEWS.get(def);
  if (view === undefined) {
    view = Object.freeze({
      id: def.id,
      type: def.type,
      event: def.event,
      claudeEvent: def.evaluator.claudeEvent,
      scope: def.scope,
      prompt: def.evaluator.prompt,
      model: def.evaluator.model,
      continueOnBlock: def.evaluator.continueOnBlock,
      timeoutMs: def.timeoutMs,
      deadlineMs: def.deadlineMs,
      origin: def.origin,
    });
    VIEWS.set(def, view);
  }
  return view;
}

/** Freezes a JSON value and everything in it (without recursion: inputs may be deep). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v)) stack.push(child);
  }
  return value;
}

export async function runEvaluatorHook(call: HookCall<EvaluatorHookDefinition>): Promise<HookAnswer> {
  const { def, input } = call;
  const evaluator = call.ctx.evaluators?.[def.type];
  if (evaluator === undefined) {
    // The loader skips such hooks; an executor always loads with the evaluators it holds.
    const message = `no evaluator is registered for ${def.type} hooks (createExecutor({ evaluators }))`;
    return notRunAnswer(hookError('runtime_error', message));
  }
  const json = hookInputJson(def.evaluator.claudeEvent, input, call.inputJson, def);
  const frozen = deepFreeze(JSON.parse(json) as HookInput);
  const hook = evaluatorView(def);
  const started = performance.now();
  const lane = await call.ctx.pool.trusted.run(
    { fn: (signal) => evaluator(hook, frozen, { signal, inputJson: json }), deadlineMs: def.deadlineMs },
    call.lane,
  );
  return inProcessAnswer(lane, started, def.deadlineMs, def.event, {
    dialect: def.dialect,
    toolInput: input.toolInput,
    agentEvent: def.agentEvent,
    input,
  });
}
