// Execute stage for trusted in-process callbacks: run under the hook's deadline through the pool;
// the answer is validated like any other hook's.
import type { HookAnswer } from '../contract/fold.js';
import type { TrustedDefinition } from '../registry/registry.js';
import { inProcessAnswer } from './hook-answer.js';
import type { HookCall } from './hook-call.js';

export async function runTrustedHook(call: HookCall<TrustedDefinition>): Promise<HookAnswer> {
  const { def, input } = call;
  const frozen = Object.freeze(structuredClone(input));
  const started = performance.now();
  const lane = await call.ctx.pool.trusted.run(
    { fn: (s) => def.handler(frozen, { hookId: def.id, signal: s }), deadlineMs: def.deadlineMs },
    call.lane,
  );
  return inProcessAnswer(lane, started, def.deadlineMs, def.event, { toolInput: input.toolInput });
}
