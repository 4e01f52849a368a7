// The execute stage: a dispatch settles its hooks tier by tier. On a deny-capable event the trusted
// and policy hooks (first in the registry's order) are one tier and the rest another; otherwise all
// hooks are one tier. To settle a tier is a pass over its hooks (serial, or parallel) followed by the
// re-check of the guards of its rewrites (recheck.ts). So the trusted and policy hooks settle their
// own rewrites among themselves, exactly as with no other file loaded, before any less-trusted hook
// sees the input: a lower hook's rewrite can neither end a round of policy guards that the policy
// alone ends in a deny, nor keep the policy's guards from seeing the policy's own rewrite.
//
// Hooks are matched lazily: each hook's matcher and `if` filters see the input as it stands when
// its turn comes. A rewrite drops the approvals given before it (in the fold).
import type { FoldState } from '../contract/fold.js';
import { recordNotRun } from './fold-answer.js';
import { settleParallel } from './parallel-pass.js';
import { recheckGuards } from './recheck.js';
import type { DispatchRun } from './run.js';
import { type SeenBy, serialPass } from './serial-pass.js';
import { type Tier, tiersOf } from './tiers.js';

/** Settles the tiers in order; once one stops (a deny) or the dispatch is aborted, the rest are not-run. */
async function settleTiers(
  run: DispatchRun,
  start: FoldState,
  settle: (tier: Tier, state: FoldState) => Promise<FoldState>,
): Promise<FoldState> {
  const tiers = tiersOf(run, run.registry.hooksFor(run.def.name));
  let state = start;
  for (const [i, tier] of tiers.entries()) {
    if (i > 0 && (state.stopped || run.aborted))
      return recordNotRun(
        run,
        tiers.slice(i).flatMap((t) => t.hooks),
        0,
        state,
      );
    state = await settle(tier, state);
  }
  return state;
}

/**
 * Serial events: each tier is one chain, then the re-check of its rewrites (on a deny-capable event).
 * The tiers share what each hook saw and which hooks ran: a hook runs once per dispatch, besides its
 * re-checks.
 */
export function runSerial(run: DispatchRun, start: FoldState): Promise<FoldState> {
  const seenBy: SeenBy = new Map();
  const ran = new Set<string>();
  return settleTiers(run, start, async (tier, state) => {
    const pass = await serialPass(run, tier.hooks, state, { recheck: false, seenBy, ran });
    if (pass.lastRewrite < 0 || !run.def.canDeny) return pass.state;
    return recheckGuards(run, tier.guardsOf, pass, seenBy);
  });
}

/** Parallel events: each tier fans out on the input as it stands, then re-checks its rewrites. */
export function runParallel(run: DispatchRun, start: FoldState): Promise<FoldState> {
  return settleTiers(run, start, (tier, state) => settleParallel(run, tier, state));
}
