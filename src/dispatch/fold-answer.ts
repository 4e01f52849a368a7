// How the execute stage folds one hook's answer into the dispatch's state: the session-env rule,
// warnings for fields the agent would not read, the text caps, then the pure fold step. Also the
// answers of hooks that never ran.
import { TEXT_CAPS } from '../config/defaults.js';
import { ignoredFieldWarnings } from '../contract/claude-code.js';
import { neverRan } from '../contract/error-codes.js';
import { type FoldState, foldStep, type HookAnswer } from '../contract/fold.js';
import { capAnswer } from '../contract/text-caps.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchRun } from './run.js';
import { applySessionEnvRule } from './session-env-rule.js';

const NOT_RUN = { kind: 'not-run' } as const;

/**
 * Whether a hook's answer says it never ran: refused before its input was sent, or `not-run` (a JS
 * batch that stopped at a deny before it). A `once` hook keeps its session's turn then: a once guard
 * that never ran must still run on the session's next dispatch.
 */
export const didNotRun = (answer: HookAnswer): boolean =>
  answer.kind === 'not-run' || (answer.kind === 'failure' && neverRan(answer.error.code));

/** The answer with a warning for each field Claude Code would not read where it was given. */
function withWarnings(run: DispatchRun, answer: HookAnswer): HookAnswer {
  if (answer.kind !== 'output' || answer.unknownFields === undefined) return answer;
  const more = ignoredFieldWarnings(run.def.name, answer.unknownFields);
  return more.length === 0 ? answer : { ...answer, warnings: [...(answer.warnings ?? []), ...more] };
}

/** Folds one answer, its hook-controlled text (messages, reason, logs) capped first: every hook type. */
export function foldAnswer(
  run: DispatchRun,
  state: FoldState,
  hook: RegisteredHook,
  answer: HookAnswer,
): FoldState {
  run.noteFolded(hook, answer);
  return foldStep(
    run.def,
    state,
    hook,
    capAnswer(withWarnings(run, applySessionEnvRule(run, hook, answer)), TEXT_CAPS),
  );
}

/** Records the hooks left in `list` from `from` on that accept the input: `not-run`. */
export function recordNotRun(
  run: DispatchRun,
  list: readonly RegisteredHook[],
  from: number,
  state: FoldState,
): FoldState {
  const seen = new Set<string>();
  let next = state;
  for (let i = from; i < list.length; i++) {
    const h = list[i]!;
    if (seen.has(h.dedupKey) || !run.accepts(h, next.input)) continue;
    seen.add(h.dedupKey);
    next = foldAnswer(run, next, h, NOT_RUN);
  }
  return next;
}
