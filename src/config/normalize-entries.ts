// Walks a `hooks` / `policyHooks` map: event names (canonical, alias or custom), then the entries in
// either shape: Claude Code's nested groups `{matcher, hooks: [...]}` or FreeCode's flat hooks
// `{name, matcher, command, timeout}`.

import type { Dialect } from '../contract/dialects.js';
import { EVENT_ALIASES, type EventCatalogue, type EventDefinition } from '../contract/events.js';
import { isObject, joinPath, renderValue } from '../contract/messages.js';
import type { Scope } from '../contract/types.js';
import type { AnswerReading, HookDefinition, PackOrigin } from '../registry/hook-definition.js';
import { ToolMatcher } from '../registry/matcher.js';
import { agentEntry, agentEventNames, agentEventOf, agentHookSpec } from './agent-entries.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookGate } from './grants.js';
import type { HookContext } from './hook-context.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import { normalizeHook } from './normalize-hook.js';
import type { PluginInfo } from './plugin-root.js';
import type { ScopeLimits } from './scope-limits.js';
import { didYouMean } from './suggest.js';

const GROUP_KEYS = new Set(['matcher', 'if', 'hooks', 'description']);

export interface EntriesContext {
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly configDir: string;
  /** The plugin the file belongs to (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA); default root `configDir`. */
  readonly plugin?: PluginInfo | undefined;
  readonly limits: ScopeLimits;
  readonly catalogue: EventCatalogue;
  /** Set when the hooks come from a verified pack. */
  readonly pack?: PackOrigin | undefined;
  /** The file's dialect; undefined for packs (their paths are resolved by the pack loader). */
  readonly dialect?: Dialect | undefined;
  /** An ambiguous file's other dialects (config/dialect.ts): each hook's answer is read in them too. */
  readonly alsoDialects?: readonly Dialect[] | undefined;
  /** The other readings of this entry's hooks (set per event from `alsoDialects`). */
  readonly alsoReadAs?: readonly AnswerReading[] | undefined;
  /** Allowed http hook URLs and variables, registered evaluators (undefined: none). */
  readonly hookTypes?: HookTypePolicy | undefined;
  /** A coding agent's file: the agent's event name the entries are registered under. */
  readonly agentEvent?: string | undefined;
  /** A project file's or a tenant's hooks: held to what the policy granted (undefined: not gated). */
  readonly gate?: HookGate | undefined;
}

export async function normalizeHooksMap(
  map: unknown,
  key: string,
  ctx: EntriesContext,
): Promise<HookDefinition[]> {
  const { sink } = ctx;
  if (!isObject(map)) {
    const hint = typeof map === 'string' ? ' (a path to another file is not followed; inline the hooks)' : '';
    sink.error(key, `expected an object mapping event names to arrays${hint}, got ${renderValue(map)}`);
    return [];
  }
  const out: HookDefinition[] = [];
  for (const eventName of Object.keys(map)) {
    const path = joinPath(key, eventName);
    const readCtx = readingsOf(eventName, ctx);
    out.push(...(await normalizeEvent(map[eventName], eventName, path, readCtx)));
  }
  return out;
}

/** Whether a file of `dialect` has an event named `name` (an agent's own, or the catalogue's). */
function knows(dialect: Dialect, name: string, catalogue: EventCatalogue): boolean {
  return isAgentDialect(dialect)
    ? agentEventOf(dialect, name) !== undefined
    : catalogue.resolve(name) !== undefined;
}

/**
 * The context of one event of an ambiguous file: its dialect is the first of the file's readings
 * that has the event, and the others that have it read its hooks' answers too.
 */
function readingsOf(name: string, ctx: EntriesContext): EntriesContext {
  const others = ctx.alsoDialects ?? [];
  if (ctx.dialect === undefined || others.length === 0) return ctx;
  const readings = [ctx.dialect, ...others].filter((d) => knows(d, name, ctx.catalogue));
  const [first, ...rest] = readings;
  if (first === undefined) return ctx;
  const alsoReadAs = rest.map((d) => (isAgentDialect(d) ? { dialect: d, agentEvent: name } : { dialect: d }));
  return { ...ctx, dialect: first, alsoReadAs };
}

/** One event's entries of a hooks map. */
async function normalizeEvent(
  entries: unknown,
  eventName: string,
  path: string,
  ctx: EntriesContext,
): Promise<HookDefinition[]> {
  const { sink } = ctx;
  const out: HookDefinition[] = [];
  const agent = agentEventOf(ctx.dialect, eventName);
  if (agent === undefined && ctx.dialect !== undefined && isAgentDialect(ctx.dialect)) {
    const names = agentEventNames(ctx.dialect);
    sink.warn(
      path,
      `unknown event "${eventName}"${didYouMean(eventName, names)} in a ${ctx.dialect} file; its events are ${names.join(', ')}`,
      true,
    );
    return out;
  }
  const resolved = ctx.catalogue.resolve(agent?.event.dispatch ?? eventName);
  if (resolved === undefined) {
    if (agent !== undefined)
      sink.warn(
        path,
        `hookwarden has no event for ${ctx.dialect}'s "${eventName}"${agent.event.left === undefined ? '' : ` (${agent.event.left})`}: these hooks do not run here (\`hookwarden ${ctx.dialect} install\` leaves them with ${ctx.dialect})`,
        true,
      );
    else
      sink.warn(
        path,
        `unknown event "${eventName}"${didYouMean(eventName, ctx.catalogue.acceptedNames())}; valid events are ${ctx.catalogue.acceptedNames().join(', ')} (or declare it under "events")`,
        true,
      );
    return out;
  }
  if (!Array.isArray(entries)) {
    sink.error(path, `expected an array of hook groups, got ${renderValue(entries)}`);
    return out;
  }
  // Codex files use Claude Code's event names (and its input on stdin).
  const claudeName = agent === undefined || agent.agent === 'codex' ? eventName : undefined;
  const claudeEvent =
    claudeName !== undefined && Object.hasOwn(EVENT_ALIASES, claudeName) ? claudeName : undefined;
  for (const [i, raw] of entries.entries()) {
    const entry = agent === undefined ? raw : agentEntry(agent.agent, eventName, agent.event, raw);
    const entryCtx = agent === undefined ? ctx : { ...ctx, agentEvent: eventName };
    out.push(...(await normalizeEntry(entry, joinPath(path, i), resolved, claudeEvent, entryCtx)));
  }
  return out;
}

const isAgentDialect = (d: Dialect): d is 'codex' | 'gemini' | 'cursor' | 'copilot' =>
  d === 'codex' || d === 'gemini' || d === 'cursor' || d === 'copilot';

async function normalizeEntry(
  entry: unknown,
  path: string,
  resolved: NonNullable<ReturnType<EventCatalogue['resolve']>>,
  claudeEvent: string | undefined,
  ctx: EntriesContext,
): Promise<HookDefinition[]> {
  const { sink } = ctx;
  const event = resolved.definition;
  if (!isObject(entry)) {
    sink.error(
      path,
      `expected a hook group {"matcher": ..., "hooks": [...]} or a hook object, got ${renderValue(entry)}`,
    );
    return [];
  }
  const matcher = buildMatcher(entry.matcher, joinPath(path, 'matcher'), event, claudeEvent, ctx);
  if (matcher === null) return [];
  const isGroup = Object.hasOwn(entry, 'hooks');
  const hookCtx = (groupIf: string | undefined): HookContext => ({
    event,
    requireOk: resolved.aliasInput?.ok,
    claudeEvent,
    scope: ctx.scope,
    sink,
    configDir: ctx.configDir,
    plugin: ctx.plugin,
    limits: ctx.limits,
    matcher,
    groupIf,
    groupIfPath: joinPath(path, 'if'),
    pack: ctx.pack,
    dialect: ctx.dialect,
    hookTypes: ctx.hookTypes,
    agentEvent: ctx.agentEvent,
    gate: ctx.gate,
    alsoReadAs: ctx.alsoReadAs,
  });
  /** A hook of an agent's file in hookwarden's spec (undefined: skipped, with a warning). */
  const specOf = (raw: unknown, at: string) =>
    ctx.agentEvent !== undefined && ctx.dialect !== undefined && isAgentDialect(ctx.dialect)
      ? agentHookSpec(ctx.dialect, raw, at, sink)
      : raw;
  if (!isGroup) {
    const { matcher: _m, ...flat } = entry;
    const spec = specOf(flat, path);
    if (spec === undefined) return [];
    const def = await normalizeHook(spec, path, hookCtx(undefined));
    return def === undefined ? [] : [def];
  }
  for (const k of Object.keys(entry)) {
    if (!GROUP_KEYS.has(k))
      sink.warn(
        joinPath(path, k),
        `unknown field "${k}" in a hook group ignored${didYouMean(k, GROUP_KEYS)}`,
      );
  }
  if (entry.if !== undefined && typeof entry.if !== 'string') {
    sink.error(joinPath(path, 'if'), `expected a string like "Bash(git *)", got ${renderValue(entry.if)}`);
    return [];
  }
  const hooks = entry.hooks;
  if (!Array.isArray(hooks)) {
    sink.error(joinPath(path, 'hooks'), `expected an array of hooks, got ${renderValue(hooks)}`);
    return [];
  }
  const out: HookDefinition[] = [];
  for (const [j, raw] of hooks.entries()) {
    const at = joinPath(joinPath(path, 'hooks'), j);
    const spec = specOf(raw, at);
    if (spec === undefined) continue;
    const def = await normalizeHook(spec, at, hookCtx(entry.if as string | undefined));
    if (def !== undefined) out.push(def);
  }
  return out;
}

/** Returns the matcher, undefined for "all / not applicable", or null when the entry must be skipped. */
function buildMatcher(
  raw: unknown,
  path: string,
  event: EventDefinition,
  claudeEvent: string | undefined,
  { sink, scope, dialect }: Pick<EntriesContext, 'sink' | 'scope' | 'dialect'>,
): ToolMatcher | undefined | null {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') {
    if (isObject(raw)) {
      sink.warn(
        path,
        `object matchers are not supported (use a tool-name string such as "Bash"), got ${renderValue(raw)}`,
        true,
      );
    } else sink.error(path, `expected a string (tool name, regex or a|b), got ${renderValue(raw)}`);
    return null;
  }
  const agent = dialect !== undefined && isAgentDialect(dialect) ? dialect : undefined;
  const m = new ToolMatcher(raw, {
    event: claudeEvent ?? event.name,
    agent,
    // Gemini CLI tests tool names with `new RegExp(matcher)` (lifecycle values exactly); Cursor's
    // reference leaves it open, so the wider reading (a regex searched in the name) runs the guard.
    regexOnly: (agent === 'gemini' || agent === 'cursor') && event.toolScoped,
  });
  if (m.kind === 'all') return undefined;
  if (!event.toolScoped && event.matchOn.length === 0) {
    sink.warn(
      path,
      `matcher ignored: ${event.name} has no matcher field, so every hook of it runs, got ${renderValue(raw)}`,
    );
    return undefined;
  }
  if (m.unevaluable !== undefined) {
    // Invariant 3: a matcher that cannot be evaluated counts as a match. In a policy file that is
    // a policy failure (its author must fix it); elsewhere the group runs for every tool.
    if (scope === 'policy')
      sink.error(
        path,
        `${m.unevaluable}: a policy matcher must be one hookwarden evaluates exactly (a tool name, a|b list, or a regex without lookaround and backreferences), got ${renderValue(raw)}`,
      );
    else
      sink.warn(
        path,
        `${m.unevaluable}; the group runs for every ${event.toolScoped ? 'tool' : 'value'} (when in doubt, run the guard), got ${renderValue(raw)}`,
      );
  } else if (m.names?.size === 0)
    sink.warn(
      path,
      `matches no name (a list of empty names), so the group never runs, got ${renderValue(raw)}`,
    );
  return m;
}
