// The execute stage's runners, one row per hook type, each called with the same HookCall: a new hook
// type adds a row here (and its runner file), not a branch in the dispatch.
import type { HookAnswer } from '../contract/fold.js';
import type { RegisteredHook } from '../registry/registry.js';
import { runCommandHook } from './command-hook.js';
import { runEvaluatorHook } from './evaluator-hook.js';
import type { HookCall } from './hook-call.js';
import { runHttpHook } from './http-hook.js';
import { runJsHooks } from './js-hook.js';
import { runTrustedHook } from './trusted-hook.js';
import { runWasmHook } from './wasm-hook.js';

type Runners = {
  readonly [T in RegisteredHook['type']]: (
    call: HookCall<Extract<RegisteredHook, { type: T }>>,
  ) => Promise<HookAnswer>;
};

const RUNNERS: Runners = {
  command: runCommandHook,
  // One JS hook is a run of one (a chain's adjacent JS hooks go to runJsHooks together).
  js: async (call) => (await runJsHooks(call, [call.def]))[0]!,
  wasm: runWasmHook,
  http: runHttpHook,
  prompt: runEvaluatorHook,
  agent: runEvaluatorHook,
  trusted: runTrustedHook,
};

/** Runs one hook now with its type's runner; never throws for a hook's failure. */
export function runHook(call: HookCall): Promise<HookAnswer> {
  // The row for call.def.type takes exactly that definition; TypeScript cannot pair them itself.
  return (RUNNERS[call.def.type] as (call: HookCall) => Promise<HookAnswer>)(call);
}
