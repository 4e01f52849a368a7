// The tiers of a dispatch's hooks. On a deny-capable event the trusted and policy hooks (first in
// the registry's order) are one tier and the rest another; otherwise all hooks are one tier. Each
// tier settles before the next starts (settle.ts).
import { overrideRank } from '../contract/scopes.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchRun } from './run.js';

const POLICY_RANK = overrideRank('policy');

/** Hooks settled together, and the hooks whose guards re-check their rewrites. */
export interface Tier {
  readonly hooks: readonly RegisteredHook[];
  /** The guards a rewrite in this tier is re-checked by: its own hooks, and for a later tier every hook. */
  readonly guardsOf: readonly RegisteredHook[];
  /** The first tier: its input is the caller's, not one a settled tier left. */
  readonly first: boolean;
}

/**
 * The tiers of `list`: [trusted + policy], [the rest] on a deny-capable event that has both (the
 * registry's order puts the first before the rest); otherwise one tier of every hook.
 */
export function tiersOf(run: DispatchRun, list: readonly RegisteredHook[]): readonly Tier[] {
  const all: Tier = { hooks: list, guardsOf: list, first: true };
  const cut = list.findIndex((h) => overrideRank(h.scope) > POLICY_RANK);
  if (!run.def.canDeny || cut <= 0) return [all];
  const lower = list.slice(cut);
  if (lower.some((h) => overrideRank(h.scope) <= POLICY_RANK)) return [all];
  const higher = list.slice(0, cut);
  return [
    { hooks: higher, guardsOf: higher, first: true },
    { hooks: lower, guardsOf: list, first: false },
  ];
}
