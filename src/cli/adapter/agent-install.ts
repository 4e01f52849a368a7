// `hookwarden codex|gemini|cursor|copilot install <file>`: each coding agent's installer on the
// shared core (install-core.ts). What is the agent's: which events and handlers stay with it (an
// answer hookwarden cannot carry back, a hook type the agent runs itself), the shape of its adapter
// entry (Gemini's timeout in milliseconds, Copilot's `bash` and `--event`, Cursor's `failClosed`),
// the matcher that entry may carry, and where the copy goes so the agent never reads it.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { detectDialect } from '../../config/dialect.js';
import { AGENTS } from '../../contract/agents/index.js';
import type { AgentName } from '../../contract/agents/protocol.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';
import { ToolMatcher } from '../../registry/matcher.js';
import { unionMatcher } from '../claude-code/install-plan.js';
import { readScannable } from '../claude-code/quick-scan.js';
import type { EventPlan, Installer, InstallPlan } from './install-types.js';

type Obj = Record<string, unknown>;

const catalogue = new EventCatalogue(DEFAULT_EVENTS);

/** Why a handler of `agent` stays with it, or undefined when the adapter runs it. */
function keptWhy(agent: AgentName, handler: unknown): string | undefined {
  if (!isObject(handler)) return undefined; // the loader reports it
  const type = handler.type ?? 'command';
  if (agent === 'codex') {
    if (type === 'prompt' || type === 'agent')
      return `"type": ${JSON.stringify(type)} hooks are refused by Codex itself (it never runs them)`;
    if (handler.async === true)
      return 'background (async) hooks: Codex runs them without holding the tool call, while the adapter process would wait for them';
  }
  if (type !== 'command')
    return `"type": ${JSON.stringify(type)} hooks are run by ${AGENTS[agent].title} itself`;
  return undefined;
}

/** Why an entry's matcher keeps it with the agent: one hookwarden cannot evaluate as the agent does. */
function matcherKeptWhy(agent: AgentName, dispatch: string, matcher: unknown): string | undefined {
  const def = catalogue.get(dispatch);
  if (def === undefined || typeof matcher !== 'string' || !def.toolScoped) return undefined;
  const m = new ToolMatcher(matcher, { event: dispatch, agent, regexOnly: agent === 'gemini' });
  return m.unevaluable === undefined
    ? undefined
    : `its matcher ${JSON.stringify(matcher)} cannot be evaluated by hookwarden (${m.unevaluable}); ${AGENTS[agent].title} runs it as before`;
}

/** The matcher of an event's adapter entry: one that matches whenever a routed one does (undefined: all). */
function adapterMatcher(
  agent: AgentName,
  event: string,
  dispatch: string,
  routed: readonly Obj[],
): string | undefined {
  if (agent === 'codex')
    return unionMatcher(
      event,
      routed.map((g) => g.matcher),
    );
  // Gemini tests a tool event's matcher with `new RegExp(m).test(tool)`: regexes join. Its lifecycle
  // matchers are exact values, Cursor's and Copilot's follow rules of their own: no matcher there,
  // the adapter runs at every occurrence and applies each entry's own.
  if (agent !== 'gemini' || catalogue.get(dispatch)?.toolScoped !== true) return undefined;
  const given = routed.map((g) => (typeof g.matcher === 'string' ? g.matcher.trim() : ''));
  if (given.some((m) => m === '' || m === '*')) return undefined;
  const unique = [...new Set(given)];
  return unique.length === 1 ? unique[0] : unique.map((m) => `(?:${m})`).join('|');
}

/** Splits an agent's hooks map into what the adapter runs and what the agent keeps. */
function planAgent(agent: AgentName, hooks: Obj): InstallPlan {
  const p = AGENTS[agent];
  const events = new Map<string, EventPlan>();
  const copy: Obj = {};
  const notes: string[] = [];
  const leave = (event: string, groups: readonly unknown[], why: string) => {
    notes.push(`${event}: left with ${p.title}: ${why}`);
    events.set(event, { routed: [], kept: groups.filter(isObject), matcher: undefined });
  };
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const e = Object.hasOwn(p.events, event) ? p.events[event]! : undefined;
    if (e === undefined) {
      leave(event, groups, `not one of ${p.title}'s events`);
      continue;
    }
    if (e.left !== undefined || catalogue.get(e.dispatch) === undefined) {
      leave(event, groups, e.left ?? 'hookwarden does not know this event');
      continue;
    }
    const routed: Obj[] = [];
    const kept: Obj[] = [];
    let failClosed = false;
    groups.forEach((group, i) => {
      if (!isObject(group)) {
        routed.push(group as Obj); // the loader reports it
        return;
      }
      const nested = Array.isArray(group.hooks);
      const handlers: unknown[] = nested ? (group.hooks as unknown[]) : [group];
      const mine = handlers.filter((h) => keptWhy(agent, h) === undefined);
      const matcherWhy = mine.length > 0 ? matcherKeptWhy(agent, e.dispatch, group.matcher) : undefined;
      if (matcherWhy !== undefined) {
        notes.push(`${event}[${i}]: left with ${p.title}: ${matcherWhy}`);
        kept.push(group);
        return;
      }
      for (const h of handlers.filter((x) => keptWhy(agent, x) !== undefined))
        notes.push(`${event}[${i}]: left with ${p.title}: ${keptWhy(agent, h)}`);
      if (mine.some((h) => isObject(h) && h.failClosed === true)) failClosed = true;
      if (nested) {
        const theirs = handlers.filter((h) => keptWhy(agent, h) !== undefined);
        if (mine.length > 0) routed.push({ ...group, hooks: mine });
        if (theirs.length > 0) kept.push({ ...group, hooks: theirs });
      } else if (mine.length > 0) routed.push(group);
      else kept.push(group);
    });
    if (routed.length > 0) copy[event] = routed;
    events.set(event, {
      routed,
      kept,
      matcher: routed.length > 0 ? adapterMatcher(agent, event, e.dispatch, routed) : undefined,
      ...(failClosed ? { failClosed } : {}),
    });
  }
  return { events, copy, notes, refusals: [] };
}

function entriesOf(
  agent: AgentName,
  event: string,
  p: EventPlan,
  words: readonly string[],
  timeout: number,
  line: (words: readonly string[]) => string,
): Obj[] {
  const matcher = p.matcher === undefined ? {} : { matcher: p.matcher };
  switch (agent) {
    case 'codex':
      return [{ ...matcher, hooks: [{ type: 'command', command: line(words), timeout }] }];
    case 'gemini':
      // Gemini's timeout is in milliseconds.
      return [
        {
          ...matcher,
          hooks: [{ type: 'command', name: 'hookwarden', command: line(words), timeout: timeout * 1000 }],
        },
      ];
    case 'cursor':
      // A moved hook that failed closed: so does the adapter's (which then never answers nothing).
      return [
        {
          command: line(p.failClosed === true ? [...words, '--explicit-allow'] : words),
          timeout,
          ...(p.failClosed === true ? { failClosed: true } : {}),
        },
      ];
    case 'copilot':
      // Copilot's inputs do not name their event: the adapter is told.
      return [{ type: 'command', bash: line([...words, '--event', event]), timeoutSec: timeout }];
  }
}

/** Where the copy goes: next to the file, under a name the agent does not read. */
function copyPathOf(agent: AgentName, path: string): string {
  const dir = dirname(path);
  const name = basename(path, extname(path));
  // Copilot CLI reads every .github/hooks/*.json: the copy must not end in .json there.
  if (agent === 'copilot') return join(dir, `${name}.hookwarden`);
  return join(dir, `${name}.hookwarden${extname(path) || '.json'}`);
}

/** Cursor also loads Claude Code's hooks (Third-party skills): which of those files exist here. */
function cursorOtherFiles(path: string): string[] {
  const dir = dirname(path);
  const project = basename(dir) === '.cursor' ? dirname(dir) : undefined;
  const candidates =
    project === undefined
      ? []
      : [join(project, '.claude', 'settings.local.json'), join(project, '.claude', 'settings.json')];
  if (dir === join(homedir(), '.cursor')) candidates.push(join(homedir(), '.claude', 'settings.json'));
  const found = candidates.filter((f) => {
    const v = existsSync(f) ? readScannable(f) : undefined;
    return v !== undefined && isObject(v.hooks) && Object.keys(v.hooks).length > 0;
  });
  return found.map(
    (f) =>
      `Cursor also runs the Claude Code hooks of ${f} when its Third-party skills setting is on; this install does not move them. In hookwarden both files are one configuration — every matching hook of either runs and a deny from either blocks (Cursor itself lets the higher-priority file win a conflict) — so to sandbox them, turn Third-party skills off and add "--config ${f}" to the adapter commands above`,
  );
}

const FILES: Readonly<Record<AgentName, { files: string; noun: string }>> = {
  codex: { files: 'a Codex hooks.json', noun: 'a Codex hooks file' },
  gemini: { files: 'a Gemini CLI settings.json', noun: 'a Gemini CLI settings file' },
  cursor: { files: 'a Cursor hooks.json ("version": 1)', noun: 'a Cursor hooks file' },
  copilot: {
    files: 'a Copilot CLI hooks file (.github/hooks/*.json, "version": 1)',
    noun: 'a Copilot CLI hooks file',
  },
};

/** The installer of `agent`. */
export function agentInstaller(agent: AgentName): Installer {
  const canonical = new Set(catalogue.names());
  return Object.freeze<Installer>({
    command: agent,
    title: AGENTS[agent].title,
    dialect: agent,
    files: FILES[agent].files,
    fileNoun: FILES[agent].noun,
    notMineWhy: (value, path) => {
      if (value.dialect !== undefined && value.dialect !== agent)
        return `declared dialect ${JSON.stringify(value.dialect)}`;
      if (value.dialect === agent) return undefined;
      const shape = detectDialect(value, canonical, path);
      // Codex's hooks.json is Claude Code's shape.
      if (shape === agent || (agent === 'codex' && shape === 'claude-code')) return undefined;
      return `its shape is ${shape === 'hookwarden' ? "hookwarden's" : `${shape}'s`} (declare "dialect": "${agent}" if it is ${AGENTS[agent].title}'s)`;
    },
    plan: (hooks) => planAgent(agent, hooks),
    entries: (event, p, words, timeout, line) => entriesOf(agent, event, p, words, timeout, line),
    copyPath: (path) => copyPathOf(agent, path),
    ...(agent === 'cursor' ? { otherFiles: cursorOtherFiles } : {}),
  });
}
