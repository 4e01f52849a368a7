// The registry: hooks indexed by canonical event, in execution order (trusted → policy → project →
// user), with the matching of one hook against an input: matcher and `if` filters (under a step
// budget) and the PostToolUseFailure `ok:false` rule, plus `once` bookkeeping. An event with no
// hooks costs one map lookup.

import { sameAgentEvent } from '../contract/agents/index.js';
import { originOf } from '../contract/agents/protocol.js';
import type { EventDefinition } from '../contract/events.js';
import { toolSubjectOf } from '../contract/tool-vocabulary.js';
import type { HookInput } from '../contract/types.js';
import type { HookDefinition, RegisteredHook, TrustedDefinition } from './hook-definition.js';
import type { StepBudget } from './regex/step-budget.js';

const EMPTY: readonly RegisteredHook[] = Object.freeze([]);

/** Most sessions whose `once` hooks are remembered; past it the least recently active is forgotten. */
const ONCE_SESSIONS = 10_000;

/**
 * Where `once` state lives: which `once` hooks already ran in a session. `session` is the tenant and
 * the session id together (tenants never share once-state); `key` names the hook. A store that
 * cannot tell answers true: the hook runs (when in doubt, run the guard).
 */
export interface OnceStore {
  /** True the first time `key` is seen for `session` (and it is recorded). */
  firstTime(key: string, session: string): boolean;
  /** Forgets `key` for `session` (a hook that was claimed but did not run). */
  forget(key: string, session: string): void;
}

/** The once-state session of a dispatch: its tenant and session id; undefined when no session id was given. */
export function onceSession(tenant: string | undefined, sessionId: string | undefined): string | undefined {
  return sessionId === undefined ? undefined : `${tenant ?? ''}\u0000${sessionId}`;
}

/**
 * Remembers which `once` hooks already ran for each session, in memory. Outlives registry rebuilds.
 * Bounded per session, least recently used first: when more than ONCE_SESSIONS sessions are
 * remembered, the one whose hooks ran longest ago is forgotten (its `once` hooks would run again if
 * it came back), never every session at once.
 */
export class OnceTracker implements OnceStore {
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

  firstTime(key: string, session: string): boolean {
    const seen = this.#touch(session);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }

  forget(key: string, session: string): void {
    this.#sessions.get(session)?.delete(key);
  }

  /** Sessions remembered (tests). */
  get sessions(): number {
    return this.#sessions.size;
  }
}

/** What names a `once` hook in its session's state: its event and id (its content digest when unnamed). */
const onceKey = (h: RegisteredHook) => `${h.event}\u0000${h.id}`;

export type { RegisteredHook, TrustedDefinition, TrustedHandler } from './hook-definition.js';

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
  readonly #once: OnceStore;

  constructor(
    hooks: readonly HookDefinition[],
    trusted: readonly TrustedDefinition[] = [],
    once: OnceStore = new OnceTracker(),
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
    // An agent that fires two events for one call (Cursor: preToolUse and beforeShellExecution) runs
    // the hooks of its file that were written for the event it sent, not those of the other.
    if ('agentEvent' in h && h.agentEvent !== undefined) {
      const origin = originOf(probe as Record<string, unknown>);
      if (origin?.agent === h.dialect && !sameAgentEvent(origin.agent, origin.name, h.agentEvent))
        return false;
    }
    if (def.toolScoped) {
      const tool = toolSubjectOf(probe);
      if (h.matcher !== undefined && !h.matcher.matches(tool, budget)) return false;
      for (const f of h.ifFilters) if (!f.matches(tool, probe.toolInput, budget, probe.cwd)) return false;
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

  /**
   * Marks a `once` hook as run for this session (onceSession()); false when it already ran (it must
   * not run). Without a session (no session id given) a `once` hook always runs and nothing is kept.
   */
  claimOnce(h: RegisteredHook, session: string | undefined): boolean {
    return !h.once || session === undefined || this.#once.firstTime(onceKey(h), session);
  }

  /** Undoes claimOnce() for a hook that was claimed but did not run after all. */
  releaseOnce(h: RegisteredHook, session: string | undefined): void {
    if (h.once && session !== undefined) this.#once.forget(onceKey(h), session);
  }
}
