// The re-check of guards after a rewrite (trust invariant 2: a verdict covers the input it was given
// on). A guard of a rewrite is every trusted and policy hook, and every hook whose scope outranks the
// rewriting hook's in the override order; an async hook guards nothing (its answer never reaches the
// verdict). Each re-run counts against `limits.maxHookCalls`; a guard that cannot be re-run because
// of it denies.
import type { FoldState } from '../contract/fold.js';
import type { HookRecord } from '../contract/result.js';
import { overrideRank } from '../contract/scopes.js';
import { isAsyncHook } from '../registry/hook-definition.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchRun } from './run.js';
import { type Pass, type SeenBy, serialPass } from './serial-pass.js';

const POLICY_RANK = overrideRank('policy');

/** Whether `h`, having seen an older input, must look at a rewrite by a scope of rank `rewriterRank`. */
export const guards = (h: RegisteredHook, rewriterRank: number): boolean =>
  !isAsyncHook(h) && (overrideRank(h.scope) <= POLICY_RANK || overrideRank(h.scope) < rewriterRank);

/** Marks the records appended since `from` as re-check runs. */
export function markRecheck(state: FoldState, from: number): FoldState {
  const records: HookRecord[] = state.records.map((r, i) => (i < from ? r : { ...r, recheck: true }));
  return { ...state, records };
}

/**
 * Re-runs the guards of the rewrites of `pass` on the final input, round after round: every guard
 * that has not seen the input as it now stands, wherever it sits in `list`. A guard that rewrites
 * while re-checking makes every other guard stale again, those after it included (they saw the
 * input before its rewrite), so two guards that keep undoing each other's rewrites run until
 * maxHookCalls, and the guard that cannot run then denies.
 */
export async function recheckGuards(
  run: DispatchRun,
  list: readonly RegisteredHook[],
  pass: Pass,
  seenBy: SeenBy,
): Promise<FoldState> {
  let { state, rewriterRank } = pass;
  while (!state.stopped && !run.aborted) {
    const stale = list.filter((h) => guards(h, rewriterRank) && seenBy.get(h) !== state.input);
    if (stale.length === 0) break;
    const from = state.records.length;
    const next = await serialPass(run, stale, state, { recheck: true, seenBy });
    state = markRecheck(next.state, from);
    rewriterRank = Math.max(rewriterRank, next.rewriterRank);
    // No rewrite in this round: every stale guard ran on (or was matched against) the final input.
    if (next.lastRewrite < 0) break;
  }
  return state;
}
