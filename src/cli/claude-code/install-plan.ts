// What `hookwarden claude-code install` does to a Claude Code hooks file, as data: which handlers go
// to the hooks copy the adapter reads, which stay with Claude Code (and why), the matcher and
// timeout of each event's adapter hook. Pure: the command (install.ts) reads and writes the files.
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';

type Obj = Record<string, unknown>;

const catalogue = new EventCatalogue(DEFAULT_EVENTS);

/** Claude Code's exact matcher form (its hooks reference, "Matcher patterns"). */
const EXACT = /^[A-Za-z0-9_ -]+([|,][A-Za-z0-9_ -]+)*$/;
/** FileChanged and StopFailure: letters, digits, `_` and `|` only. */
const EXACT_NARROW = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/;

/** Why an event's hooks all stay with Claude Code, or undefined when they can be routed. */
function notRoutedWhy(event: string, groups: readonly unknown[]): string | undefined {
  if (catalogue.get(event) === undefined) return 'hookwarden does not know this event';
  // A WorktreeCreate command hook answers with the worktree path on stdout: no DispatchResult field.
  if (event === 'WorktreeCreate')
    return 'its command hooks answer with the worktree path on stdout, which the adapter cannot pass on';
  // FileChanged matchers are also Claude Code's watch list: one adapter group cannot both name the
  // files and match every watched file, as a group without a matcher does.
  if (
    event === 'FileChanged' &&
    groups.some((g) => !isObject(g) || typeof g.matcher !== 'string' || g.matcher === '')
  )
    return 'a group without a matcher (every watched file) cannot share one adapter group with the watch list';
  return undefined;
}

/** Why a handler stays with Claude Code, or undefined when the adapter runs it. */
export function keptWhy(handler: unknown): string | undefined {
  if (!isObject(handler)) return undefined; // the loader reports it
  if (handler.type !== 'command')
    return `"type": ${JSON.stringify(handler.type)} hooks are run by Claude Code itself`;
  if (handler.async === true || handler.asyncRewake === true)
    return 'background (async) hooks: Claude Code runs them without holding the tool call, while the adapter process would wait for them';
  return undefined;
}

/** The matcher of an event's adapter group: one that matches whenever any routed group's does. */
export function unionMatcher(event: string, matchers: readonly unknown[]): string | undefined {
  const def = catalogue.get(event);
  if (def === undefined || (!def.toolScoped && def.matchOn.length === 0)) return undefined; // no matcher support
  const given = matchers.map((m) => (typeof m === 'string' ? m.trim() : ''));
  if (given.some((m) => m === '' || m === '*')) return undefined; // a group matches everything
  if (event === 'FileChanged') return [...new Set(given.flatMap((m) => m.split('|')))].join('|');
  const exact = event === 'StopFailure' ? EXACT_NARROW : EXACT;
  if (given.every((m) => exact.test(m)))
    return [...new Set(given.flatMap((m) => m.split(/[|,]/).map((n) => n.trim())))].join('|');
  // Some are regular expressions: one unanchored expression that is true where any of them is.
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const parts = given.map((m) =>
    exact.test(m)
      ? `^(?:${m
          .split(/[|,]/)
          .map((n) => literal(n.trim()))
          .join('|')})$`
      : `(?:${m})`,
  );
  return [...new Set(parts)].join('|');
}

export interface EventPlan {
  /** Routed matcher groups (to the hooks copy). */
  readonly routed: Obj[];
  /** Groups left with Claude Code (their handlers the adapter does not run). */
  readonly kept: Obj[];
  /** The adapter group's matcher (undefined: every occurrence). */
  readonly matcher: string | undefined;
}

export interface InstallPlan {
  /** Claude Code event → its plan, for each event that has hooks. */
  readonly events: ReadonlyMap<string, EventPlan>;
  /** The hooks the copy holds (the adapter's config). */
  readonly copy: Obj;
  /** What stays with Claude Code and why, one line each. */
  readonly notes: readonly string[];
}

/** Splits a hooks file's `hooks` map into what the adapter runs and what Claude Code keeps. */
export function planInstall(hooks: Obj): InstallPlan {
  const events = new Map<string, EventPlan>();
  const copy: Obj = {};
  const notes: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const why = notRoutedWhy(event, groups);
    if (why !== undefined) {
      notes.push(`${event}: left with Claude Code: ${why}`);
      events.set(event, { routed: [], kept: groups.filter(isObject), matcher: undefined });
      continue;
    }
    const routed: Obj[] = [];
    const kept: Obj[] = [];
    groups.forEach((group, i) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        routed.push(group as Obj); // the loader reports it
        return;
      }
      const mine = group.hooks.filter((h) => keptWhy(h) === undefined);
      const theirs = group.hooks.filter((h) => keptWhy(h) !== undefined);
      for (const h of theirs) notes.push(`${event}[${i}]: left with Claude Code: ${keptWhy(h)}`);
      if (mine.length > 0) routed.push({ ...group, hooks: mine });
      if (theirs.length > 0) kept.push({ ...group, hooks: theirs });
    });
    if (routed.length > 0) copy[event] = routed;
    events.set(event, {
      routed,
      kept,
      matcher: unionMatcher(
        event,
        routed.map((g) => g.matcher),
      ),
    });
  }
  return { events, copy, notes };
}
