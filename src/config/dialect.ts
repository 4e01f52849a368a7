// A config file's dialect: whose rules its hooks follow where the systems differ. Declared with a
// top-level "dialect", or decided by where the file is and what it says explicitly:
// - where it is: a folder one agent reads (`.claude/`, `.codex/`, `.gemini/`, `.cursor/`,
//   `.github/hooks/`, `.copilot/`);
// - what it says: hookwarden-only keys or hook fields (policyHooks, timeoutMs, type "js"…), an event
//   name exactly one agent has, or a hook field only one agent writes (Copilot's bash/timeoutSec,
//   Cursor's failClosed, Codex's commandWindows, Gemini's sequential and hooksConfig).
// An event name two agents share never decides (Claude Code and Codex share Interrupt, Cursor and
// Copilot share preToolUse): the tables of shared and single names are computed from the agents'
// own event tables, so a new event of one agent cannot silently flip another agent's files. Without
// any such sign a file reads as its shape's home dialect (Claude Code's event names: claude-code;
// FreeCode's flat form: freecode; hookwarden's names: hookwarden). When the signs point at more than
// one agent (a place and an event of another agent, Cursor's and Copilot's shared camelCase events),
// the file is ambiguous: every hook's answer is read in each of those dialects and the strictest
// reading counts (dispatch/command-protocol.ts), and the loader warns, naming the "dialect" to declare.
// The dialect decides how relative command paths resolve (README "Paths").

import { sep } from 'node:path';
import { AGENTS } from '../contract/agents/index.js';
import { DIALECTS, type Dialect } from '../contract/dialects.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../contract/events.js';
import { isObject, renderValue } from '../contract/messages.js';
import type { DiagnosticSink } from './diagnostics.js';

const HOOKWARDEN_TOP = ['policyHooks', 'events', 'limits', 'packs', 'tenants'];
const HOOKWARDEN_FIELDS = [
  'timeoutMs',
  'budgetMs',
  'onError',
  'argv',
  'source',
  'code',
  'memoryBytes',
  'maxOutputBytes',
  'inheritEnv',
  'isolation',
  'writable',
  'runAs',
  'rlimits',
];

/** The dialects with event tables of their own (a coding agent, or Claude Code). */
type AgentDialect = 'claude-code' | 'codex' | 'gemini' | 'cursor' | 'copilot';
/** The order a reading is preferred in when a file is ambiguous (the first sign's agent first). */
const AGENT_DIALECTS: readonly AgentDialect[] = ['claude-code', 'cursor', 'copilot', 'gemini', 'codex'];

/** Every event name each agent's own files use (FreeCode's TurnEnd is not Claude Code's). */
const EVENT_NAMES: Readonly<Record<AgentDialect, ReadonlySet<string>>> = {
  'claude-code': new Set([...CLAUDE_CODE_EVENT_NAMES].filter((n) => n !== 'TurnEnd')),
  codex: new Set(Object.keys(AGENTS.codex.events)),
  gemini: new Set(Object.keys(AGENTS.gemini.events)),
  cursor: new Set(Object.keys(AGENTS.cursor.events)),
  copilot: new Set(Object.keys(AGENTS.copilot.events)),
};

/** The agents that have an event name (case-sensitive). */
function agentsWithEvent(name: string): AgentDialect[] {
  return AGENT_DIALECTS.filter((d) => EVENT_NAMES[d].has(name));
}

/** Hook fields only one agent writes. */
const FIELDS: Readonly<Record<'cursor' | 'copilot' | 'codex', readonly string[]>> = {
  copilot: ['bash', 'powershell', 'timeoutSec'],
  cursor: ['failClosed', 'loop_limit'],
  codex: ['commandWindows', 'additionalContextLimit', 'visibilityHint'],
};
/** A top-level key only a Gemini CLI settings.json has (its other keys may be anyone's: mcpServers…). */
const GEMINI_SETTINGS = ['hooksConfig'];

/** How a file is read: its dialect, and the other dialects its answers are also read in. */
export interface DialectReading {
  readonly dialect: Dialect;
  /** Other dialects the file could be (ambiguous): each hook's answer is read in them too. */
  readonly also: readonly Dialect[];
  /** Why the file is ambiguous and how to say which it is (set when `also` is not empty). */
  readonly warning?: string;
}

/** Whether a hook spec uses a field only hookwarden has. */
const hookwardenHook = (h: unknown) =>
  isObject(h) && (h.type === 'js' || HOOKWARDEN_FIELDS.some((f) => Object.hasOwn(h, f)));

/** Every hook object of a hooks map (flat entries, and those in groups). */
function* hookObjects(hooks: Record<string, unknown>): Generator<Record<string, unknown>> {
  for (const entries of Object.values(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      if (Array.isArray(entry.hooks)) {
        for (const h of entry.hooks) if (isObject(h)) yield h;
      } else yield entry;
    }
  }
}

/** The agent a file belongs to by where it is (a folder the agent reads), if any. */
function agentByPlace(path: string | undefined): AgentDialect | undefined {
  if (path === undefined) return undefined;
  const parts = path.split(sep);
  if (parts.includes('.claude')) return 'claude-code';
  if (parts.includes('.codex')) return 'codex';
  if (parts.includes('.gemini')) return 'gemini';
  if (parts.includes('.cursor')) return 'cursor';
  if (parts.includes('.copilot')) return 'copilot';
  const github = parts.lastIndexOf('.github');
  if (github >= 0 && parts[github + 1] === 'hooks') return 'copilot';
  return undefined;
}

/** The agents a file's own words point at: event names only one agent has, fields only one writes. */
function agentSigns(
  file: Record<string, unknown>,
  hooks: Record<string, unknown>,
  canonical: ReadonlySet<string>,
): Set<AgentDialect> {
  const signs = new Set<AgentDialect>();
  for (const name of Object.keys(hooks)) {
    // hookwarden's own names (BeforeTool…) are Gemini's too: they point at nobody.
    if (canonical.has(name)) continue;
    const agents = agentsWithEvent(name);
    if (agents.length === 1) signs.add(agents[0]!);
  }
  const fields = new Set([...hookObjects(hooks)].flatMap((h) => Object.keys(h)));
  for (const agent of ['copilot', 'cursor', 'codex'] as const)
    if (FIELDS[agent].some((f) => fields.has(f))) signs.add(agent);
  for (const entries of Object.values(hooks))
    if (Array.isArray(entries) && entries.some((e) => isObject(e) && Object.hasOwn(e, 'sequential')))
      signs.add('gemini');
  if (GEMINI_SETTINGS.some((k) => Object.hasOwn(file, k))) signs.add('gemini');
  return signs;
}

/** The agents whose tables know every event name of the file (what could read it as it is). */
function agentsKnowingAll(names: readonly string[]): AgentDialect[] {
  return AGENT_DIALECTS.filter((d) => names.every((n) => EVENT_NAMES[d].has(n)));
}

const quoteList = (ds: readonly string[]) => ds.map((d) => `"${d}"`).join(' or ');

/** An ambiguous file's reading: the first in `order`, the others also read; and the warning. */
function ambiguous(order: readonly AgentDialect[], why: string): DialectReading {
  const [dialect, ...also] = order;
  return {
    dialect: dialect!,
    also,
    warning: `the file could be ${order.join(' or ')} (${why}): each hook's answer is read in every one of those dialects and the strictest counts; declare "dialect": ${quoteList(order)} to choose`,
  };
}

/** The shape's home dialect when nothing points at an agent (the dialect of hookwarden's own files). */
function byShape(
  file: Record<string, unknown>,
  hooks: Record<string, unknown>,
  canonical: ReadonlySet<string>,
): DialectReading {
  const names = Object.keys(hooks);
  let flat = false;
  let aliasOnly = true;
  let canonicalName = false;
  for (const [event, entries] of Object.entries(hooks)) {
    if (canonical.has(event) && !CLAUDE_CODE_EVENT_NAMES.has(event)) canonicalName = true;
    if (!/^[A-Z][A-Za-z]+$/.test(event)) aliasOnly = false;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      if (!Object.hasOwn(entry, 'hooks')) {
        if (hookwardenHook(entry)) return { dialect: 'hookwarden', also: [] };
        flat = true;
      } else if (Array.isArray(entry.hooks) && entry.hooks.some(hookwardenHook))
        return { dialect: 'hookwarden', also: [] };
    }
  }
  if (canonicalName) return { dialect: 'hookwarden', also: [] };
  // Cursor's and Copilot's shared camelCase events with their `"version"`: either agent's file.
  if (names.some((n) => /^[a-z]/.test(n)) && file.version !== undefined) {
    const both = agentsKnowingAll(names).filter((d) => d === 'cursor' || d === 'copilot');
    if (both.length > 1) return ambiguous(both, 'only event names both agents have');
    return { dialect: both[0] ?? 'cursor', also: [] };
  }
  if (flat) return { dialect: 'freecode', also: [] };
  if (aliasOnly && names.length > 0) return { dialect: 'claude-code', also: [] };
  return { dialect: 'hookwarden', also: [] };
}

/**
 * How a file is read (`canonical`: the names of hookwarden's own events; `path`: the file's absolute
 * path): its dialect, and the others its answers are also read in when it is ambiguous.
 */
export function readDialect(
  file: Record<string, unknown>,
  canonical: ReadonlySet<string>,
  path?: string,
): DialectReading {
  if (HOOKWARDEN_TOP.some((k) => Object.hasOwn(file, k))) return { dialect: 'hookwarden', also: [] };
  const hooks = file.hooks;
  if (!isObject(hooks)) return { dialect: 'hookwarden', also: [] };
  const place = agentByPlace(path);
  const signs = agentSigns(file, hooks, canonical);
  if (place !== undefined) {
    // hookwarden's own hook fields in an agent's folder: a hookwarden file kept there.
    if (signs.size === 0 && [...hookObjects(hooks)].some(hookwardenHook))
      return { dialect: 'hookwarden', also: [] };
    if (signs.size === 0 || (signs.size === 1 && signs.has(place))) return { dialect: place, also: [] };
    return ambiguous(
      [place, ...[...signs].filter((s) => s !== place)],
      `it is in a ${place} folder and names another agent's events or fields`,
    );
  }
  if (signs.size === 1) return { dialect: [...signs][0]!, also: [] };
  if (signs.size > 1)
    return ambiguous(
      AGENT_DIALECTS.filter((d) => signs.has(d)),
      'it names events or fields of more than one agent',
    );
  return byShape(file, hooks, canonical);
}

/** The dialect a file is read in (readDialect's, without the other readings). */
export function detectDialect(
  file: Record<string, unknown>,
  canonical: ReadonlySet<string>,
  path?: string,
): Dialect {
  return readDialect(file, canonical, path).dialect;
}

/** A file's declared dialect, or how where it is and what it says read it (a warning if ambiguous). */
export function dialectOfFile(
  value: Record<string, unknown>,
  sink: DiagnosticSink,
  canonical: ReadonlySet<string>,
  path: string | undefined,
): DialectReading {
  const declared = value.dialect;
  if (declared !== undefined) {
    if (typeof declared === 'string' && (DIALECTS as readonly string[]).includes(declared))
      return { dialect: declared as Dialect, also: [] };
    sink.error(
      'dialect',
      `expected one of ${DIALECTS.map((d) => `"${d}"`).join(', ')}, got ${renderValue(declared)}`,
      false,
    );
  }
  const reading = readDialect(value, canonical, path);
  if (reading.warning !== undefined) sink.warn('', reading.warning);
  return reading;
}
