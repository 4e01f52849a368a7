// The execute and fold stages of a dispatch: serial chains, parallel fan-outs, and the re-check of
// guards after a rewrite (trust invariant 2: a verdict covers the input it was given on).
//
// Hooks are matched lazily: each hook's matcher and `if` filters see the input as it stands when
// its turn comes, so hooks after a rewrite are matched against the rewritten input. A rewrite
// drops the approvals given before it (in the fold), and when the chain is done every hook that saw
// an older input is re-run on the final one if it is a guard of that rewrite: every trusted and
// policy hook, and every hook whose scope outranks the rewriting hook's. On a deny-capable event,
// serial or parallel, the trusted and policy hooks settle their own rewrites first, before a lower
// hook sees the input (`atPolicy`). A guard that rewrites in
// turn starts another round for every guard that has not seen its rewrite, before it or after it.
// Each re-run counts against `limits.maxHookCalls`; a guard that cannot be re-run because of it
// denies.
import { TEXT_CAPS } from '../config/defaults.js';
import { ignoredFieldWarnings } from '../contract/claude-code.js';
import { neverRan } from '../contract/error-codes.js';
import type { EventDefinition } from '../contract/events.js';
import { type FoldState, foldStep, type HookAnswer } from '../contract/fold.js';
import { jsonEqual } from '../contract/json-equal.js';
import type { HookRecord } from '../contract/result.js';
import { capAnswer } from '../contract/text-caps.js';
import type { HookInput, Scope } from '../contract/types.js';
import { isAsyncHook } from '../registry/hook-definition.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchRun } from './run.js';
import { applySessionEnvRule } from './session-env-rule.js';

const RANK: Record<Scope, number> = { trusted: 0, policy: 1, project: 2, user: 3 };
const NOT_RUN = { kind: 'not-run' } as const;

/**
 * Whether a hook's answer says it never ran: refused before its input was sent, or `not-run` (a JS
 * batch that stopped at a deny before it). A `once` hook keeps its session's turn then (fuzz seed
 * 20261203, case 5111: a once guard batched behind a pack's deny lost its turn, and the session's
 * next dispatch was allowed without it).
 */
const didNotRun = (answer: HookAnswer) =>
  answer.kind === 'not-run' || (answer.kind === 'failure' && neverRan(answer.error.code));

/**
 * The input each hook last saw: the one it ran on (or, when it rewrote, the one it produced: a
 * hook's own rewrite is not run past it again), or was matched against and did not accept.
 */
type SeenBy = Map<RegisteredHook, HookInput>;

/** Where the last rewrite of a pass happened, and the least trusted scope that rewrote. */
interface Pass {
  readonly state: FoldState;
  /** Index in the pass's list of the last hook that rewrote the input; -1: no rewrite. */
  readonly lastRewrite: number;
  /** Rank of the least trusted scope that rewrote; -1: no rewrite. */
  readonly rewriterRank: number;
  /**
   * Whether a hook answered with a rewrite other than the input it was given, in any mode (a
   * parallel event's hooks all see one input, and only the last rewrite survives its fold).
   */
  readonly rewroteAway: boolean;
}

/** The answer with a warning for each field Claude Code would not read where it was given. */
function withWarnings(run: DispatchRun, answer: HookAnswer): HookAnswer {
  if (answer.kind !== 'output' || answer.unknownFields === undefined) return answer;
  const more = ignoredFieldWarnings(run.def.name, answer.unknownFields);
  return more.length === 0 ? answer : { ...answer, warnings: [...(answer.warnings ?? []), ...more] };
}

/** Folds one answer, its hook-controlled text (messages, reason, logs) capped first: every hook type. */
function fold(run: DispatchRun, state: FoldState, hook: RegisteredHook, answer: HookAnswer): FoldState {
  run.noteFolded(hook, answer);
  return foldStep(
    run.def,
    state,
    hook,
    capAnswer(withWarnings(run, applySessionEnvRule(run, hook, answer)), TEXT_CAPS),
  );
}

/** Records the hooks left in `list` from `from` on that accept the input: `not-run`. */
function recordNotRun(run: DispatchRun, list: readonly RegisteredHook[], from: number, state: FoldState) {
  const seen = new Set<string>();
  let next = state;
  for (let i = from; i < list.length; i++) {
    const h = list[i]!;
    if (seen.has(h.dedupKey) || !run.accepts(h, next.input)) continue;
    seen.add(h.dedupKey);
    next = fold(run, next, h, NOT_RUN);
  }
  return next;
}

/**
 * Runs `list` in order as one serial chain from `start`. In a re-check, a guard that cannot run
 * because of maxHookCalls is a deny, never a skip.
 */
async function runChain(
  run: DispatchRun,
  list: readonly RegisteredHook[],
  start: FoldState,
  recheck: boolean,
  seenBy: SeenBy = new Map(),
  /** Dedup keys of the hooks that ran in this pass (shared by the two halves of a serial chain). */
  ran = new Set<string>(),
): Promise<Pass> {
  const { registry, onceSession } = run;
  /** once hooks this pass claimed for the session: a claim is given back if the hook never ran. */
  const claimed = new Set<RegisteredHook>();
  const claim = (h: RegisteredHook) => {
    if (recheck) return true; // a re-check always runs the guard: the rewritten input is one it has not seen
    if (!registry.claimOnce(h, onceSession)) return false;
    claimed.add(h);
    return true;
  };
  let state = start;
  let lastRewrite = -1;
  let rewriterRank = -1;
  let rewroteAway = false;
  const folded = (h: RegisteredHook, answer: HookAnswer, at: number) => {
    if (didNotRun(answer) && claimed.delete(h)) registry.releaseOnce(h, onceSession);
    rewroteAway ||= rewritesAway(run.def, answer, state.input);
    const before = state.input;
    state = fold(
      run,
      state,
      recheck && answer.kind === 'failure' && answer.error.code === 'max_hook_calls'
        ? ({ ...h, onError: 'deny' } as RegisteredHook)
        : h,
      answer,
    );
    if (state.input !== before) {
      lastRewrite = at;
      rewriterRank = Math.max(rewriterRank, RANK[h.scope]);
    }
    if (answer.kind !== 'failure' || answer.error.code !== 'max_hook_calls') seenBy.set(h, state.input);
  };
  for (let i = 0; i < list.length; ) {
    if (state.stopped || run.aborted) {
      state = recordNotRun(run, list, i, state);
      break;
    }
    const h = list[i]!;
    if (ran.has(h.dedupKey) || !run.accepts(h, state.input)) {
      seenBy.set(h, state.input);
      i++;
      continue;
    }
    // A once hook whose turn this session is spent is no guard here, so no cap refuses it: the
    // turn is claimed before the cap is checked, as in a parallel event (fuzz seed 20261203, case
    // 50562: a spent once guard refused by the policy's cap denied serially, not in parallel).
    if (!claim(h)) {
      i++;
      continue;
    }
    const blocked = run.overLimit(h);
    if (blocked !== undefined) {
      ran.add(h.dedupKey);
      folded(h, blocked, i);
      i++;
      continue;
    }
    ran.add(h.dedupKey);
    if (h.type !== 'js' || isAsyncHook(h)) {
      folded(h, await run.runOne(h, state.input), i);
      i++;
      continue;
    }
    // Adjacent JS hooks of one scope that accept this input run as one task (one round trip);
    // the worker stops after a rewrite, and the host matches the rest against the new input.
    const batch = [h];
    const at = [i];
    let j = i + 1;
    for (; j < list.length; j++) {
      const k = list[j]!;
      if (k.type !== 'js' || k.scope !== h.scope || isAsyncHook(k)) break;
      if (ran.has(k.dedupKey) || !run.accepts(k, state.input)) continue;
      if (run.overLimit(k, batch.length) !== undefined) break;
      if (!claim(k)) continue;
      ran.add(k.dedupKey);
      batch.push(k);
      at.push(j);
    }
    // A batch member whose rewrite could change what a later hook of the span matches.
    const filtered = list.slice(i + 1, j).map((k) => run.def.toolScoped && k.ifFilters.length > 0);
    const rematchAfter = at.map((p) => filtered.slice(p - i).some(Boolean));
    const answers = await run.runJs(batch, state.input, rematchAfter);
    for (const [n, answer] of answers.entries()) folded(batch[n]!, answer, at[n]!);
    for (const k of batch.slice(answers.length)) {
      ran.delete(k.dedupKey);
      if (claimed.delete(k)) registry.releaseOnce(k, onceSession);
    }
    // Go on after the last hook that ran: hooks skipped in between are matched again (the input
    // may have changed), the batch's own hooks are not run twice.
    i = answers.length > 0 ? at[answers.length - 1]! + 1 : j;
  }
  return { state, lastRewrite, rewriterRank, rewroteAway };
}

/** Marks the records appended since `from` as re-check runs. */
function markRecheck(state: FoldState, from: number): FoldState {
  const records: HookRecord[] = state.records.map((r, i) => (i < from ? r : { ...r, recheck: true }));
  return { ...state, records };
}

/**
 * Whether `h`, having seen an older input, must look at a rewrite by a scope of rank `rewriterRank`.
 * An async hook guards nothing (its answer never reaches the verdict): it is not queued again.
 */
const guards = (h: RegisteredHook, rewriterRank: number) =>
  !isAsyncHook(h) && (RANK[h.scope] <= RANK.policy || RANK[h.scope] < rewriterRank);

/**
 * Re-runs the guards of the rewrites of `pass` on the final input, round after round: every guard
 * that has not seen the input as it now stands, wherever it sits in the chain. A guard that rewrites
 * while re-checking makes every other guard stale again, those after it included (they saw the
 * input before its rewrite), so two guards that keep undoing each other's rewrites run until
 * maxHookCalls, and the guard that cannot run then denies.
 */
async function recheckGuards(
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
    const next = await runChain(run, stale, state, true, seenBy);
    state = markRecheck(next.state, from);
    rewriterRank = Math.max(rewriterRank, next.rewriterRank);
    // No rewrite in this round: every stale guard ran on (or was matched against) the final input.
    if (next.lastRewrite < 0) break;
  }
  return state;
}

/**
 * A deny-capable event's hooks cut where the trusted and policy hooks end (they come first in the
 * registry's order); undefined when there is nothing to settle first: an observer event, no trusted
 * or policy hook, or no other.
 */
function atPolicy(
  run: DispatchRun,
  list: readonly RegisteredHook[],
): { higher: readonly RegisteredHook[]; lower: readonly RegisteredHook[] } | undefined {
  const cut = list.findIndex((h) => RANK[h.scope] > RANK.policy);
  if (!run.def.canDeny || cut <= 0) return undefined;
  const lower = list.slice(cut);
  if (lower.some((h) => RANK[h.scope] <= RANK.policy)) return undefined;
  return { higher: list.slice(0, cut), lower };
}

/**
 * Serial events: one chain over every hook of the event, then the re-check of rewrites. On a
 * deny-capable event the trusted and policy hooks settle first: their own rewrites are re-checked
 * among them, exactly as with no other file loaded, before any less-trusted hook sees the input. A
 * lower hook's rewrite could otherwise end a round of policy guards undoing each other's rewrites
 * that the policy alone ends in a deny at maxHookCalls (fuzz seed 20261203, invariant 1, case
 * 65666: a user pack's rewrite turned that deny into a passthrough).
 */
export async function runSerial(run: DispatchRun, state: FoldState): Promise<FoldState> {
  const list = run.registry.hooksFor(run.def.name);
  const seenBy: SeenBy = new Map();
  const split = atPolicy(run, list);
  if (split === undefined) {
    const pass = await runChain(run, list, state, false, seenBy);
    if (pass.lastRewrite < 0 || !run.def.canDeny) return pass.state;
    return recheckGuards(run, list, pass, seenBy);
  }
  const { higher, lower } = split;
  const ran = new Set<string>();
  const first = await runChain(run, higher, state, false, seenBy, ran);
  const settled = first.lastRewrite < 0 ? first.state : await recheckGuards(run, higher, first, seenBy);
  if (settled.stopped || run.aborted) return recordNotRun(run, lower, 0, settled);
  const pass = await runChain(run, lower, settled, false, seenBy, ran);
  if (pass.lastRewrite < 0) return pass.state;
  return recheckGuards(run, list, pass, seenBy);
}

/** The input a parallel event's folded mutations describe (its chain targets applied). */
function rewrittenInput(def: EventDefinition, state: FoldState): HookInput {
  let input: HookInput | undefined;
  for (const [field, target] of Object.entries(def.chain)) {
    const value = state.mutations[field as keyof typeof state.mutations];
    if (value === undefined || target === undefined) continue;
    input ??= { ...state.input };
    (input as Record<string, unknown>)[target] = value;
  }
  return input ?? state.input;
}

/**
 * Parallel events: every hook that accepts the input runs at once on it; answers fold in
 * registration order. On a deny-capable event whose hooks rewrote the input, no approval stands:
 * the guards run again, one after the other, on the rewritten input. Guards running at the same
 * time cannot see each other's rewrites, so a guard that rewrites again in that round denies.
 * As in a serial event, the trusted and policy hooks settle first (their own fan-out and re-check,
 * exactly as with no other file loaded), and the other hooks fan out on the settled input: a lower
 * hook's rewrite folded over a policy hook's could otherwise keep the policy's guards from ever
 * seeing the policy's own rewrite (fuzz seed 20261203, invariant 1, case 97083).
 */
export async function runParallel(run: DispatchRun, start: FoldState): Promise<FoldState> {
  const list = run.registry.hooksFor(run.def.name);
  const split = atPolicy(run, list);
  if (split === undefined) return fanOut(run, start, list, list);
  const { higher, lower } = split;
  const settled = await fanOut(run, start, higher, higher);
  if (settled.stopped || run.aborted) return recordNotRun(run, lower, 0, settled);
  return fanOut(run, settled, lower, list, true);
}

/**
 * One parallel round of `list` on `start`'s input, then the serial re-check of `guardsOf`;
 * `settledRound`: `start` is the result of the policy's settled round.
 */
async function fanOut(
  run: DispatchRun,
  start: FoldState,
  list: readonly RegisteredHook[],
  guardsOf: readonly RegisteredHook[],
  settledRound = false,
): Promise<FoldState> {
  const { registry, onceSession, def } = run;
  const input = start.input;
  const selected: RegisteredHook[] = [];
  const seen = new Set<string>();
  for (const h of list) {
    if (seen.has(h.dedupKey) || !run.accepts(h, input)) continue;
    seen.add(h.dedupKey);
    if (registry.claimOnce(h, onceSession)) selected.push(h);
  }
  // Each hook's cap counts the calls launched before it: a hook its own scope's cap refused is no
  // call, so it cannot use up a wider scope's turn (fuzz seed 20261203: a project hook past its cap
  // of 1 made a user hook under its cap of 2 refused).
  let launched = 0;
  const blocked = selected.map((h) => {
    const refused = run.overLimit(h, launched);
    if (refused === undefined) launched++;
    return refused;
  });
  const answers = await Promise.all(selected.map((h, i) => blocked[i] ?? run.runOne(h, input)));
  let state = start;
  for (const [i, h] of selected.entries()) {
    const answer = answers[i]!;
    // A once hook that never ran (past maxHookCalls, refused before its input was sent) keeps its turn.
    if (didNotRun(answer)) registry.releaseOnce(h, onceSession);
    state = fold(run, state, h, answer);
  }
  const rewriters = selected.filter((_, i) => rewrites(def, answers[i]!));
  // After a settled round, its mutations are already the input: only this round's rewrites count.
  if (settledRound && rewriters.length === 0) return state;
  const rewritten = rewrittenInput(def, state);
  if (!def.canDeny || rewritten === input || state.stopped || run.aborted) return state;
  const rewriterRank = Math.max(...rewriters.map((h) => RANK[h.scope]));
  state = { ...state, input: rewritten };
  if (state.decision === 'allow')
    state = { ...state, decision: 'passthrough', reason: undefined, decidedBy: undefined };
  const from = state.records.length;
  const recheck = await runChain(
    run,
    guardsOf.filter((h) => guards(h, rewriterRank)),
    state,
    true,
  );
  state = markRecheck(recheck.state, from);
  // Any guard that wants another input than the one every guard was shown denies: comparing only
  // the folded result missed two guards undoing each other's rewrites, whose last one restores the
  // input (fuzz seed 20261203, invariant 1, case 12 617: a project file that made BeforeTool
  // parallel turned the policy's deny, after maxHookCalls of serial re-checks, into a passthrough).
  if (
    !state.stopped &&
    (recheck.rewroteAway || !jsonEqualInput(def, rewrittenInput(def, state), rewritten))
  ) {
    state = {
      ...state,
      decision: 'deny',
      reason:
        'a guard rewrote the input again while re-checking a rewrite; a parallel event cannot settle it',
      decidedBy: undefined,
      stopped: true,
    };
  }
  return state;
}

/** Whether an answer rewrites a chained input field of the event. */
function rewrites(def: EventDefinition, answer: HookAnswer): boolean {
  if (answer.kind !== 'output' || answer.output === undefined) return false;
  const output = answer.output as Record<string, unknown>;
  return Object.keys(def.chain).some((f) => output[f] !== undefined);
}

/** Whether the answer rewrites a chained field to something other than `input` holds. */
function rewritesAway(def: EventDefinition, answer: HookAnswer, input: HookInput): boolean {
  if (answer.kind !== 'output' || answer.output === undefined) return false;
  const output = answer.output as Record<string, unknown>;
  return Object.entries(def.chain).some(
    ([field, target]) =>
      target !== undefined && output[field] !== undefined && !jsonEqual(output[field], input[target]),
  );
}

function jsonEqualInput(def: EventDefinition, a: HookInput, b: HookInput): boolean {
  return Object.values(def.chain).every((t) => t === undefined || jsonEqual(a[t], b[t]));
}
