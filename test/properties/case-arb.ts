// A whole case: a configuration for one event, and the dispatches to make (inputs, sessions).
import fc from 'fast-check';
import { type ConfigModel, configArb, type GenOptions } from './gen/config.js';
import { type EventName, eventInput, eventName } from './gen/events.js';
import type { ToolInputOptions } from './gen/inputs.js';
import { PACK_NAMES } from './packs.js';

export interface DispatchModel {
  readonly input: Record<string, unknown>;
  /** Index of the case's session (a few dispatches share one: `once`). */
  readonly session: number;
}

export interface CaseModel {
  readonly config: ConfigModel;
  readonly dispatches: readonly DispatchModel[];
}

export const DEFAULT_GEN: GenOptions = {
  rewrites: true,
  fails: true,
  kinds: { js: 24, command: 1, http: 1, wasm: 2 },
  once: true,
  async: true,
  unevaluable: 'lower',
  hostile: true,
  errors: true,
  limits: true,
  packs: PACK_NAMES,
};

export function caseArb(
  gen: GenOptions = DEFAULT_GEN,
  options: { events?: fc.Arbitrary<EventName>; input?: ToolInputOptions; maxDispatches?: number } = {},
): fc.Arbitrary<CaseModel> {
  return (options.events ?? eventName).chain((event) =>
    fc.record({
      config: configArb(event, gen),
      dispatches: fc.array(
        fc.record({ input: eventInput(event, options.input), session: fc.integer({ min: 0, max: 1 }) }),
        { minLength: 1, maxLength: options.maxDispatches ?? 2 },
      ),
    }),
  );
}

let sessions = 0;
/** Session ids unique to one case (the rigs are long-lived: once-state must not carry over). */
export function sessionIds(): [string, string] {
  const n = sessions++;
  return [`case${n}-a`, `case${n}-b`];
}

/** The input as dispatched: the case's session, a fixed cwd and time (hooks see the same bytes on every rig). */
export function dispatchInput(d: DispatchModel, ids: readonly string[]): Record<string, unknown> {
  return {
    ...d.input,
    sessionId: ids[d.session]!,
    cwd: '/work/project',
    timestamp: '2026-11-29T12:00:00.000Z',
  };
}
