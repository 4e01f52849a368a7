// The registry: hooks indexed by canonical event, in execution order (trusted → policy → project →
// user). resolve() is the first stage of a dispatch: matcher and `if` filters, the PostToolUseFailure
// `ok:false` rule, dedup of identical specs and `once`. An event with no hooks costs one map lookup.

import type { HookDefinition } from '../config/hook-definition.js';
import type { EventDefinition } from '../contract/events.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import type { IfFilter } from './if-filter.js';
import type { ToolMatcher } from './matcher.js';

/** Context given to a trusted callback. */
export interface TrustedContext {
  readonly hookId: string;
  /** Aborts at the hook's deadline or when the dispatch is aborted. */
  readonly signal: AbortSignal;
}

export type TrustedHandler = (
  input: Readonly<HookInput>,
  ctx: TrustedContext,
) => HookOutput | undefined | Promise<HookOutput | undefined>;

/** A trusted in-process callback as registered (never loaded from a file). */
export interface TrustedDefinition {
  readonly id: string;
  readonly event: string;
  readonly scope: 'trusted';
  readonly type: 'trusted';
  readonly matcher: ToolMatcher | undefined;
  readonly ifFilters: readonly IfFilter[];
  readonly requireOk: boolean | undefined;
  readonly onError: 'skip' | 'deny';
  readonly deadlineMs: number;
  readonly once: false;
  readonly dedupKey: string;
  readonly handler: TrustedHandler;
}

export type RegisteredHook = HookDefinition | TrustedDefinition;

const EMPTY: readonly RegisteredHook[] = Object.freeze([]);
const ONCE_LIMIT = 100_000;

/** Remembers which `once` hooks already ran for a session. Outlives registry rebuilds. */
export class OnceTracker {
  readonly #seen = new Set<string>();

  /** True the first time a hook is seen for a session. */
  firstTime(h: RegisteredHook, sessionId: string): boolean {
    const key = `${h.event}\u0000${h.id}\u0000${sessionId}`;
    if (this.#seen.has(key)) return false;
    if (this.#seen.size >= ONCE_LIMIT) this.#seen.clear();
    this.#seen.add(key);
    return true;
  }
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
   * The hooks whose matcher, `if` filters and `ok` rule accept this input, in order, identical specs
   * once. Reads only `toolName`, `toolInput` and `ok`, so it can run before the input is validated.
   */
  match(
    def: EventDefinition,
    probe: Readonly<Pick<HookInput, 'toolName' | 'toolInput' | 'ok'>>,
  ): readonly RegisteredHook[] {
    const list = this.#byEvent.get(def.name);
    if (list === undefined) return EMPTY;
    let out: RegisteredHook[] | undefined;
    for (const h of list) {
      if (def.toolScoped) {
        if (h.matcher !== undefined && !h.matcher.matches(probe.toolName)) continue;
        if (h.ifFilters.length > 0 && !h.ifFilters.every((f) => f.matches(probe.toolName, probe.toolInput)))
          continue;
      }
      if (h.requireOk !== undefined && probe.ok !== h.requireOk) continue;
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

  /** Drops `once` hooks that already ran for this session, and marks the others as used. */
  takeOnce(hooks: readonly RegisteredHook[], sessionId: string): readonly RegisteredHook[] {
    if (!hooks.some((h) => h.once)) return hooks;
    return hooks.filter((h) => !h.once || this.#once.firstTime(h, sessionId));
  }
}
