// Execute stage for trusted in-process callbacks: run under the hook's deadline through the pool;
// the answer is validated like any other hook's.
import { hookError } from '../contract/error-codes.js';
import type { HookAnswer } from '../contract/fold.js';
import { parseHookOutput } from '../contract/parse-output.js';
import type { HookInput } from '../contract/types.js';
import type { HookPool, LaneRunOptions } from '../pool/pool.js';
import type { TrustedDefinition } from '../registry/registry.js';
import { refusedAnswer } from './refused.js';

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
  if (!lane.ran) return refusedAnswer(lane, performance.now() - started);
  const { value } = lane;
  const timing = { latencyMs: performance.now() - started, queuedMs: 0 };
  if (value.kind === 'timeout') {
    return {
      kind: 'failure',
      error: hookError('timeout', `no answer within ${def.deadlineMs} ms`, { deadlineMs: def.deadlineMs }),
      ...timing,
    };
  }
  if (value.kind === 'threw') {
    const message =
      value.error instanceof Error ? `${value.error.name}: ${value.error.message}` : String(value.error);
    return { kind: 'failure', error: { code: 'runtime_error', message }, ...timing };
  }
  const parsed = parseHookOutput(value.value ?? undefined, def.event, { toolInput: input.toolInput });
  if (!parsed.ok)
    return { kind: 'failure', error: { code: 'invalid_output', message: parsed.message }, ...timing };
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields, ...timing };
}
