// One serial pass over a list of hooks: each hook, when its turn comes, is matched against the input
// as it stands, claims its `once` turn, is checked against `limits.maxHookCalls`, runs, and its answer
// is folded. Adjacent JS hooks of one scope run as one task. The pass notes what the re-check needs:
// the input each hook last saw, and where and by whom the input was rewritten.
import type { FoldState, HookAnswer } from '../contract/fold.js';
import { overrideRank } from '../contract/scopes.js';
import { isAsyncHook, type JsHookDefinition } from '../registry/hook-definition.js';
import type { RegisteredHook } from '../registry/registry.js';
import { didNotRun, foldAnswer, recordNotRun } from './fold-answer.js';
import { rewritesAway } from './rewrites.js';
import type { DispatchRun } from './run.js';

/**
 * The input each hook last saw: the one it ran on (or, when it rewrote, the one it produced: a
 * hook's own rewrite is not run past it again), or was matched against and did not accept.
 */
export type SeenBy = Map<RegisteredHook, HookInputOf>;
type HookInputOf = FoldState['input'];

/** What a pass leaves: its state, where the last rewrite happened, and the least trusted rewriter. */
export interface Pass {
  readonly state: FoldState;
  /** Index in the pass's list of the last hook that rewrote the input; -1: no rewrite. */
  readonly lastRewrite: number;
  /** Override rank of the least trusted scope that rewrote; -1: no rewrite. */
  readonly rewriterRank: number;
  /**
   * Whether a hook answered with a rewrite other than the input it was given, in any mode (a
   * parallel event's hooks all see one input, and only the last rewrite survives its fold).
   */
  readonly rewroteAway: boolean;
}

/** How a pass runs: a first pass, or a re-check, and what it shares with the other passes. */
export interface PassOptions {
  /** A re-check: a guard that cannot run because of maxHookCalls is a deny, never a skip. */
  readonly recheck: boolean;
  readonly seenBy?: SeenBy | undefined;
  /** Dedup keys of the hooks that ran (shared by the tiers of a serial dispatch). */
  readonly ran?: Set<string> | undefined;
}

/** Runs `list` in order as one serial chain from `start`. */
export function serialPass(
  run: DispatchRun,
  list: readonly RegisteredHook[],
  start: FoldState,
  options: PassOptions,
): Promise<Pass> {
  return new SerialPass(run, list, start, options).run();
}

class SerialPass {
  readonly #run: DispatchRun;
  readonly #list: readonly RegisteredHook[];
  readonly #recheck: boolean;
  readonly #seenBy: SeenBy;
  readonly #ran: Set<string>;
  /** once hooks this pass claimed for the session: a claim is given back if the hook never ran. */
  readonly #claimed = new Set<RegisteredHook>();
  #state: FoldState;
  #lastRewrite = -1;
  #rewriterRank = -1;
  #rewroteAway = false;

  constructor(run: DispatchRun, list: readonly RegisteredHook[], start: FoldState, options: PassOptions) {
    this.#run = run;
    this.#list = list;
    this.#state = start;
    this.#recheck = options.recheck;
    this.#seenBy = options.seenBy ?? new Map();
    this.#ran = options.ran ?? new Set();
  }

  async run(): Promise<Pass> {
    const run = this.#run;
    const list = this.#list;
    for (let i = 0; i < list.length; ) {
      if (this.#state.stopped || run.aborted) {
        this.#state = recordNotRun(run, list, i, this.#state);
        break;
      }
      i = await this.#step(i);
    }
    const pass = { lastRewrite: this.#lastRewrite, rewriterRank: this.#rewriterRank };
    return { state: this.#state, ...pass, rewroteAway: this.#rewroteAway };
  }

  /** The hook at `i`'s turn (or its run of JS hooks); returns the index to go on from. */
  async #step(i: number): Promise<number> {
    const run = this.#run;
    const h = this.#list[i]!;
    if (this.#ran.has(h.dedupKey) || !run.accepts(h, this.#state.input)) {
      this.#seenBy.set(h, this.#state.input);
      return i + 1;
    }
    // A once hook whose turn this session is spent is no guard here, so no cap refuses it: the
    // turn is claimed before the cap is checked, as in a parallel event.
    if (!this.#claim(h)) return i + 1;
    const blocked = run.overLimit(h);
    this.#ran.add(h.dedupKey);
    if (blocked !== undefined) {
      this.#folded(h, blocked, i);
      return i + 1;
    }
    if (h.type !== 'js' || isAsyncHook(h)) {
      this.#folded(h, await run.runOne(h, this.#state.input), i);
      return i + 1;
    }
    return this.#jsRun(h, i);
  }

  #claim(h: RegisteredHook): boolean {
    // A re-check always runs the guard: the rewritten input is one it has not seen.
    if (this.#recheck) return true;
    if (!this.#run.registry.claimOnce(h, this.#run.onceSession)) return false;
    this.#claimed.add(h);
    return true;
  }

  #release(h: RegisteredHook): void {
    if (this.#claimed.delete(h)) this.#run.registry.releaseOnce(h, this.#run.onceSession);
  }

  #folded(h: RegisteredHook, answer: HookAnswer, at: number): void {
    const run = this.#run;
    if (didNotRun(answer)) this.#release(h);
    this.#rewroteAway ||= rewritesAway(run.def, answer, this.#state.input);
    const before = this.#state.input;
    const refused = answer.kind === 'failure' && answer.error.code === 'max_hook_calls';
    const as = this.#recheck && refused ? ({ ...h, onError: 'deny' } as RegisteredHook) : h;
    this.#state = foldAnswer(run, this.#state, as, answer);
    if (this.#state.input !== before) {
      this.#lastRewrite = at;
      this.#rewriterRank = Math.max(this.#rewriterRank, overrideRank(h.scope));
    }
    if (!refused) this.#seenBy.set(h, this.#state.input);
  }

  /**
   * Adjacent JS hooks of one scope that accept this input run as one task (one round trip); the
   * worker stops after a rewrite, and the host matches the rest against the new input.
   */
  async #jsRun(h: JsHookDefinition & RegisteredHook, i: number): Promise<number> {
    const run = this.#run;
    const list = this.#list;
    const input = this.#state.input;
    const batch: (JsHookDefinition & RegisteredHook)[] = [h];
    const at = [i];
    let j = i + 1;
    for (; j < list.length; j++) {
      const k = list[j]!;
      if (k.type !== 'js' || k.scope !== h.scope || isAsyncHook(k)) break;
      if (this.#ran.has(k.dedupKey) || !run.accepts(k, input)) continue;
      if (run.overLimit(k, batch.length) !== undefined) break;
      if (!this.#claim(k)) continue;
      this.#ran.add(k.dedupKey);
      batch.push(k);
      at.push(j);
    }
    // A batch member whose rewrite could change what a later hook of the span matches.
    const filtered = list.slice(i + 1, j).map((k) => run.def.toolScoped && k.ifFilters.length > 0);
    const rematchAfter = at.map((p) => filtered.slice(p - i).some(Boolean));
    const answers = await run.runJs(batch, input, rematchAfter);
    for (const [n, answer] of answers.entries()) this.#folded(batch[n]!, answer, at[n]!);
    for (const k of batch.slice(answers.length)) {
      this.#ran.delete(k.dedupKey);
      this.#release(k);
    }
    // Go on after the last hook that ran: hooks skipped in between are matched again (the input
    // may have changed), the batch's own hooks are not run twice.
    return answers.length > 0 ? at[answers.length - 1]! + 1 : j;
  }
}
