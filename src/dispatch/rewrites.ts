// What an answer rewrites: the event's chained input fields (`mutatedToolInput` → `toolInput`, …).
import type { EventDefinition } from '../contract/events.js';
import type { FoldState, HookAnswer } from '../contract/fold.js';
import { jsonEqual } from '../contract/json-equal.js';
import type { HookInput } from '../contract/types.js';

/** Whether an answer rewrites a chained input field of the event. */
export function rewrites(def: EventDefinition, answer: HookAnswer): boolean {
  if (answer.kind !== 'output' || answer.output === undefined) return false;
  const output = answer.output as Record<string, unknown>;
  return Object.keys(def.chain).some((f) => output[f] !== undefined);
}

/** Whether the answer rewrites a chained field to something other than `input` holds. */
export function rewritesAway(def: EventDefinition, answer: HookAnswer, input: HookInput): boolean {
  if (answer.kind !== 'output' || answer.output === undefined) return false;
  const output = answer.output as Record<string, unknown>;
  return Object.entries(def.chain).some(
    ([field, target]) =>
      target !== undefined && output[field] !== undefined && !jsonEqual(output[field], input[target]),
  );
}

/** Whether two inputs hold the same chained fields. */
export function sameChainedFields(def: EventDefinition, a: HookInput, b: HookInput): boolean {
  return Object.values(def.chain).every((t) => t === undefined || jsonEqual(a[t], b[t]));
}

/** The input a parallel event's folded mutations describe (its chain targets applied). */
export function rewrittenInput(def: EventDefinition, state: FoldState): HookInput {
  let input: HookInput | undefined;
  for (const [field, target] of Object.entries(def.chain)) {
    const value = state.mutations[field as keyof typeof state.mutations];
    if (value === undefined || target === undefined) continue;
    input ??= { ...state.input };
    (input as Record<string, unknown>)[target] = value;
  }
  return input ?? state.input;
}
