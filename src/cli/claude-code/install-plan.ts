// What `hookwarden claude-code install` does to a Claude Code hooks file, as data: which handlers go
// to the hooks copy the adapter reads, which stay with Claude Code (and why), the matcher and
// timeout of each event's adapter hook. Pure: the command (install.ts) reads and writes the files.
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';
import { ToolMatcher } from '../../registry/matcher.js';
import type { EventPlan, InstallPlan } from '../adapter/install-types.js';

type Obj = Record<string, unknown>;

const catalogue = new EventCatalogue(DEFAULT_EVENTS);

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

/** Whether the event's groups have matchers (Claude Code's tool events and the matchOn ones). */
function hasMatchers(event: string): boolean {
  const def = catalogue.get(event);
  return def !== undefined && (def.toolScoped || def.matchOn.length > 0);
}

/**
 * Why a group's matcher keeps it with Claude Code: one hookwarden cannot evaluate as Claude Code does
 * (lookaround, a backreference, not a valid regex), or undefined. Routed, such a group would run for
 * every tool in hookwarden, and its pattern in the adapter group's matcher could make that one invalid
 * for Claude Code; left alone, Claude Code runs it exactly as before.
 */
function matcherKeptWhy(event: string, matcher: unknown): string | undefined {
  if (!hasMatchers(event) || typeof matcher !== 'string') return undefined;
  const m = new ToolMatcher(matcher, { event });
  return m.unevaluable === undefined
    ? undefined
    : `its matcher ${JSON.stringify(matcher)} cannot be evaluated by hookwarden (${m.unevaluable}); Claude Code runs the group as before`;
}

/** The matcher of an event's adapter group: one that matches whenever any routed group's does. */
export function unionMatcher(event: string, matchers: readonly unknown[]): string | undefined {
  if (!hasMatchers(event)) return undefined; // no matcher support
  const given = matchers.map((m) => (typeof m === 'string' ? m.trim() : ''));
  if (given.some((m) => m === '' || m === '*')) return undefined; // a group matches everything
  if (event === 'FileChanged') return [...new Set(given.flatMap((m) => m.split('|')))].join('|');
  // Claude Code's own decision between a list of names and a regex (registry/matcher.ts).
  const parsed = given.map((m) => new ToolMatcher(m, { event }));
  if (parsed.every((p) => p.names !== undefined))
    return [...new Set(parsed.flatMap((p) => [...p.names!]))].join('|');
  // Some are regular expressions: one unanchored expression that is true where any of them is.
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const parts = parsed.map((p) =>
    p.names !== undefined ? `^(?:${[...p.names].map(literal).join('|')})$` : `(?:${p.source})`,
  );
  return [...new Set(parts)].join('|');
}

/** Why the union cannot be Claude Code's matcher (e.g. two groups name a capture group alike). */
function unionProblem(event: string, union: string | undefined): string | undefined {
  if (union === undefined || event === 'FileChanged') return undefined;
  try {
    new RegExp(union); // what Claude Code does with it (parsed only here)
    return undefined;
  } catch (err) {
    return `${event}: the groups' matchers cannot be joined into one adapter matcher (${(err as Error).message}); give each capture group its own name, or none`;
  }
}

export type { InstallPlan } from '../adapter/install-types.js';

/** Splits a hooks file's `hooks` map into what the adapter runs and what Claude Code keeps. */
export function planInstall(hooks: Obj): InstallPlan {
  const events = new Map<string, EventPlan>();
  const copy: Obj = {};
  const notes: string[] = [];
  const refusals: string[] = [];
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
      const matcherWhy = mine.length > 0 ? matcherKeptWhy(event, group.matcher) : undefined;
      if (matcherWhy !== undefined) {
        notes.push(`${event}[${i}]: left with Claude Code: ${matcherWhy}`);
        kept.push(group);
        return;
      }
      const theirs = group.hooks.filter((h) => keptWhy(h) !== undefined);
      for (const h of theirs) notes.push(`${event}[${i}]: left with Claude Code: ${keptWhy(h)}`);
      if (mine.length > 0) routed.push({ ...group, hooks: mine });
      if (theirs.length > 0) kept.push({ ...group, hooks: theirs });
    });
    if (routed.length > 0) copy[event] = routed;
    const matcher = unionMatcher(
      event,
      routed.map((g) => g.matcher),
    );
    const problem = routed.length > 0 ? unionProblem(event, matcher) : undefined;
    if (problem !== undefined) refusals.push(problem);
    events.set(event, { routed, kept, matcher });
  }
  return { events, copy, notes, refusals };
}
