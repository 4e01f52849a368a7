// The registry: hooks indexed by canonical event, in execution order (trusted → policy → project →
// user), with the matching of one hook against an input: matcher and `if` filters (under a step
// budget) and the PostToolUseFailure `ok:false` rule, plus `once` bookkeeping. An event with no
// hooks costs one map lookup.

import type { EventDefinition } from '../contract/events.js';
import type { HookInput } from '../contract/types.js';
import type { HookDefinition, RegisteredHook, TrustedDefinition } from './hook-definition.js';
import type { StepBudget } from './regex/step-budget.js';

const EMPTY: readonly RegisteredHook[] = Object.freeze([]);

/** Most sessions whose `once` hooks are remembered; past it the least recently active is forgotten. */
export const ONCE_SESSIONS = 10_000;

/**
 * Remembers which `once` hooks already ran for each session. Outlives registry rebuilds. Bounded
 * per session, least recently used first: when more than ONCE_SESSIONS sessions are remembered, the
 * one whose hooks ran longest ago is forgotten (its `once` hooks would run again if it came back),
 * never every session at once.
 */
export class OnceTracker {
  /** Session → the `event\0id` of each `once` hook that ran; Map order = least recently used first. */
  readonly #sessions = new Map<string, Set<string>>();
  readonly #limit: number;

  constructor(limit = ONCE_SESSIONS) {
    this.#limit = limit;
  }

  #touch(sessionId: string): Set<string> {
    let seen = this.#sessions.get(sessionId);
    if (seen !== undefined) this.#sessions.delete(sessionId);
    else {
      seen = new Set();
      if (this.#sessions.size >= this.#limit) {
        const oldest = this.#sessions.keys().next().value;
        if (oldest !== undefined) this.#sessions.delete(oldest);
      }
    }
    this.#sessions.set(sessionId, seen);
    return seen;
  }

  /** True the first time a hook is seen for a session. */
  firstTime(h: RegisteredHook, sessionId: string): boolean {
    const seen = this.#touch(sessionId);
    const key = `${h.event}\u0000${h.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }

  forget(h: RegisteredHook, sessionId: string): void {
    this.#sessions.get(sessionId)?.delete(`${h.event}\u0000${h.id}`);
  }

  /** Sessions remembered (tests). */
  get sessions(): number {
    return this.#sessions.size;
  }
}

export type { RegisteredHook, TrustedContext, TrustedDefinition, TrustedHandler } from './hook-definition.js';

/** The first of `paths` (dotted) that holds a string in the input: what a non-tool matcher tests. */
function matchValue(input: Readonly<Partial<HookInput>>, paths: readonly string[]): string | undefined {
  for (const written of paths) {
    const base = written.startsWith('basename:');
    const path = base ? written.slice('basename:'.length) : written;
    let v: unknown = input;
    for (const k of path.split('.'))
      v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
    if (typeof v === 'string') return base ? (v.split(/[\\/]/).pop() ?? v) : v;
  }
  return undefined;
}

export class Registry {
  readonly #byEvent = new Map<string, RegisteredHook[]>();
  readonly #once: OnceTracker;

  constructor(
    hooks: readonly HookDefinition[],
    trusted: readonly TrustedDefinition[] = [],
    once = new OnceTracker(),
  ) {
    this.#once = once;
    for (const h of [...trusted, ...hooks]) this.#add(h);
  }

  #add(h: RegisteredHook): void {
    const list = this.#byEvent.get(h.event);
    if (list === undefined) this.#byEvent.set(h.event, [h]);
    else list.push(h);
  }

  /** Hooks registered for an event, before filtering. */
  hooksFor(event: string): readonly RegisteredHook[] {
    return this.#byEvent.get(event) ?? EMPTY;
  }

  /**
   * Whether one hook's matcher, `if` filters and `ok` rule accept this input. Reads only `toolName`,
   * `toolInput` and `ok`, so it can run before the input is validated. A search that runs out of
   * `budget` counts as a match (when in doubt, run the guard).
   */
  accepts(
    h: RegisteredHook,
    def: EventDefinition,
    probe: Readonly<Partial<HookInput>>,
    budget?: StepBudget,
  ): boolean {
    if (def.toolScoped) {
      if (h.matcher !== undefined && !h.matcher.matches(probe.toolName, budget)) return false;
      for (const f of h.ifFilters)
        if (!f.matches(probe.toolName, probe.toolInput, budget, probe.cwd)) return false;
    } else if (h.matcher !== undefined && def.matchOn.length > 0) {
      if (!h.matcher.matches(matchValue(probe, def.matchOn), budget)) return false;
    }
    // PostToolUse hooks run unless the call failed; PostToolUseFailure hooks only when it did.
    if (h.requireOk === undefined) return true;
    return h.requireOk ? probe.ok !== false : probe.ok === false;
  }

  /** Whether any hook of the event accepts this input (the dispatch's fast path). */
  anyAccepts(def: EventDefinition, probe: Readonly<Partial<HookInput>>, budget?: StepBudget): boolean {
    const list = this.#byEvent.get(def.name);
    if (list === undefined) return false;
    for (const h of list) if (this.accepts(h, def, probe, budget)) return true;
    return false;
  }

  /** The hooks that accept this input, in order, identical specs once. */
  match(
    def: EventDefinition,
    probe: Readonly<Partial<HookInput>>,
    budget?: StepBudget,
  ): readonly RegisteredHook[] {
    const list = this.#byEvent.get(def.name);
    if (list === undefined) return EMPTY;
    let out: RegisteredHook[] | undefined;
    for (const h of list) {
      if (!this.accepts(h, def, probe, budget)) continue;
      if (out === undefined) out = [h];
      else out.push(h);
    }
    if (out === undefined) return EMPTY;
    if (out.length > 1) {
      const seen = new Set<string>();
      out = out.filter((h) => !seen.has(h.dedupKey) && seen.add(h.dedupKey) !== undefined);
    }
    return out;
  }

  /** Marks a `once` hook as run for this session; false when it already ran (it must not run). */
  claimOnce(h: RegisteredHook, sessionId: string): boolean {
    return !h.once || this.#once.firstTime(h, sessionId);
  }

  /** Undoes claimOnce() for a hook that was claimed but did not run after all. */
  releaseOnce(h: RegisteredHook, sessionId: string): void {
    if (h.once) this.#once.forget(h, sessionId);
  }
}
