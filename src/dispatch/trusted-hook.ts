// Execute stage for trusted in-process callbacks: run under the hook's deadline through the pool;
// the answer is validated like any other hook's.
import type { HookAnswer } from '../contract/fold.js';
import type { HookInput } from '../contract/types.js';
import type { HookPool, LaneRunOptions } from '../pool/pool.js';
import type { TrustedDefinition } from '../registry/registry.js';
import { inProcessAnswer } from './hook-answer.js';

export async function runTrustedHook(
  def: TrustedDefinition,
  input: HookInput,
  pool: HookPool,
  options: LaneRunOptions,
): Promise<HookAnswer> {
  const frozen = Object.freeze(structuredClone(input));
  const started = performance.now();
  const lane = await pool.trusted.run(
    { fn: (s) => def.handler(frozen, { hookId: def.id, signal: s }), deadlineMs: def.deadlineMs },
    options,
  );
  return inProcessAnswer(lane, started, def.deadlineMs, def.event, { toolInput: input.toolInput });
}
