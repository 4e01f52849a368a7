// One settled tier of a parallel event: every hook that accepts the input runs at once on it, the
// answers fold in registration order, and on a deny-capable event whose hooks rewrote the input no
// approval stands: the guards run again, one after the other, on the rewritten input. Guards running
// at the same time cannot see each other's rewrites, so a guard that rewrites again there denies.
import type { FoldState, HookAnswer } from '../contract/fold.js';
import { overrideRank } from '../contract/scopes.js';
import type { HookInput } from '../contract/types.js';
import type { RegisteredHook } from '../registry/registry.js';
import { didNotRun, foldAnswer } from './fold-answer.js';
import { guards, markRecheck } from './recheck.js';
import { rewrites, rewrittenInput, sameChainedFields } from './rewrites.js';
import type { DispatchRun } from './run.js';
import { serialPass } from './serial-pass.js';
import type { Tier } from './tiers.js';

/** Runs the hooks of `list` that accept `input` and claim their once turn, at once; folds the answers. */
async function fanOut(
  run: DispatchRun,
  start: FoldState,
  list: readonly RegisteredHook[],
): Promise<{ state: FoldState; rewriters: RegisteredHook[] }> {
  const { registry, onceSession } = run;
  const input = start.input;
  const selected: RegisteredHook[] = [];
  const seen = new Set<string>();
  for (const h of list) {
    if (seen.has(h.dedupKey) || !run.accepts(h, input)) continue;
    seen.add(h.dedupKey);
    if (registry.claimOnce(h, onceSession)) selected.push(h);
  }
  // Each hook's cap counts the calls launched before it: a hook its own scope's cap refused is no
  // call, so it cannot use up a wider scope's turn.
  let launched = 0;
  const blocked = selected.map((h) => {
    const refused = run.overLimit(h, launched);
    if (refused === undefined) launched++;
    return refused;
  });
  const answers: HookAnswer[] = await Promise.all(selected.map((h, i) => blocked[i] ?? run.runOne(h, input)));
  let state = start;
  for (const [i, h] of selected.entries()) {
    const answer = answers[i]!;
    // A once hook that never ran (past maxHookCalls, refused before its input was sent) keeps its turn.
    if (didNotRun(answer)) registry.releaseOnce(h, onceSession);
    state = foldAnswer(run, state, h, answer);
  }
  return { state, rewriters: selected.filter((_, i) => rewrites(run.def, answers[i]!)) };
}

/**
 * Settles one tier of a parallel event: its fan-out on the input as it stands, then the serial
 * re-check of the tier's guards on the rewritten input.
 */
export async function settleParallel(run: DispatchRun, tier: Tier, start: FoldState): Promise<FoldState> {
  const { def } = run;
  const input = start.input;
  const out = await fanOut(run, start, tier.hooks);
  let state = out.state;
  // After a settled tier, its mutations are already the input: only this tier's rewrites count.
  if (!tier.first && out.rewriters.length === 0) return state;
  const rewritten = rewrittenInput(def, state);
  if (!def.canDeny || rewritten === input || state.stopped || run.aborted) return state;
  const rewriterRank = Math.max(...out.rewriters.map((h) => overrideRank(h.scope)));
  state = { ...state, input: rewritten };
  if (state.decision === 'allow')
    state = { ...state, decision: 'passthrough', reason: undefined, decidedBy: undefined };
  const from = state.records.length;
  const stale = tier.guardsOf.filter((h) => guards(h, rewriterRank));
  const recheck = await serialPass(run, stale, state, { recheck: true });
  state = markRecheck(recheck.state, from);
  if (state.stopped || !(recheck.rewroteAway || !sameInput(run, state, rewritten))) return state;
  return denyUnsettled(state);
}

/** Whether the re-check's folded rewrites describe `rewritten` again. */
const sameInput = (run: DispatchRun, state: FoldState, rewritten: HookInput) =>
  sameChainedFields(run.def, rewrittenInput(run.def, state), rewritten);

/**
 * Any guard that wants another input than the one every guard was shown denies: comparing only the
 * folded result would miss two guards undoing each other's rewrites, whose last one restores the
 * input.
 */
function denyUnsettled(state: FoldState): FoldState {
  return {
    ...state,
    decision: 'deny',
    reason: 'a guard rewrote the input again while re-checking a rewrite; a parallel event cannot settle it',
    decidedBy: undefined,
    stopped: true,
  };
}
