// A coding agent's config file read as it is (docs/agents.md): its event names resolve through its
// protocol's event table (Cursor's beforeShellExecution is BeforeTool for the Bash tool), and its
// hook entries become hookwarden's spec: Gemini's `timeout` in milliseconds, Cursor's `failClosed`,
// Copilot's `bash`/`cwd`/`timeoutSec`, the fields Codex adds. What an agent runs differently from
// hookwarden is said here once, for the loader and for `<agent> install`.
import { AGENTS, isAgent } from '../contract/agents/index.js';
import type { AgentEvent, AgentName } from '../contract/agents/protocol.js';
import type { Dialect } from '../contract/dialects.js';
import { isObject, joinPath, renderValue } from '../contract/messages.js';
import type { DiagnosticSink } from './diagnostics.js';

type Obj = Record<string, unknown>;

/** An agent event name in an agent's file: what it maps to (undefined: not one of the agent's). */
export function agentEventOf(
  dialect: Dialect | undefined,
  name: string,
): { agent: AgentName; event: AgentEvent } | undefined {
  if (dialect === undefined || !isAgent(dialect)) return undefined;
  const events = AGENTS[dialect].events;
  return Object.hasOwn(events, name) ? { agent: dialect, event: events[name]! } : undefined;
}

/** The event names of an agent (for "valid events are …"). */
export const agentEventNames = (agent: AgentName): string[] => Object.keys(AGENTS[agent].events);

/** Cursor events whose matcher is a fixed label: the label (or nothing) means every occurrence. */
const CURSOR_LABELS: Readonly<Record<string, string>> = {
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
  afterAgentResponse: 'AgentResponse',
  afterAgentThought: 'AgentThought',
};

/** A Cursor entry's matcher where the event names its tool: the tool, and the matcher as an `if`. */
function cursorMatcher(name: string, event: AgentEvent, entry: Obj): Obj {
  const m = typeof entry.matcher === 'string' ? entry.matcher.trim() : undefined;
  const { matcher: _m, ...rest } = entry;
  if (Object.hasOwn(CURSOR_LABELS, name)) return m === undefined || m === CURSOR_LABELS[name] ? rest : entry;
  if (event.tool === 'Bash') {
    // beforeShellExecution matchers test the command's text: a regex searched in it.
    const out: Obj = { ...rest, matcher: 'Bash' };
    if (m !== undefined && m !== '' && m !== '*') out.if = `Bash(/${m.replace(/\//g, '\\/')}/)`;
    return out;
  }
  if (event.tool === 'mcp') return { ...rest, matcher: m === undefined || m === '' ? '^mcp__' : m };
  if (event.tool !== undefined && (m === undefined || m === '' || m === '*'))
    return { ...rest, matcher: event.tool };
  return entry;
}

const DROPPED: Readonly<Record<string, readonly string[]>> = {
  // Codex: Windows' command, the context spill threshold and a UI hint have no meaning here.
  codex: ['commandWindows', 'additionalContextLimit', 'visibilityHint'],
  gemini: ['description'],
  cursor: [],
  copilot: ['comment', 'powershell'],
};

/** A single-quoted word for bash. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * One hook of an agent's file as hookwarden's spec; undefined when it is skipped (a warning says
 * why). `path` is its JSON path.
 */
export function agentHookSpec(agent: AgentName, raw: unknown, path: string, sink: DiagnosticSink): unknown {
  if (!isObject(raw)) return raw; // the loader reports it
  const spec: Obj = {};
  for (const [k, v] of Object.entries(raw)) if (!DROPPED[agent]!.includes(k)) spec[k] = v;
  if (agent === 'codex' && (raw.type === 'prompt' || raw.type === 'agent')) {
    // Codex refuses them ("prompt hooks are not supported yet"): they never run there either.
    sink.warn(
      path,
      `Codex does not run "type": ${JSON.stringify(raw.type)} hooks (skipped, as Codex skips them)`,
      true,
    );
    return undefined;
  }
  if (agent === 'gemini') {
    if (raw.type !== undefined && raw.type !== 'command') {
      sink.warn(path, `Gemini CLI hook type ${renderValue(raw.type)} is not a command hook: skipped`, true);
      return undefined;
    }
    // Gemini's timeout is in milliseconds.
    if (spec.timeout !== undefined) {
      spec.timeoutMs = spec.timeout;
      delete spec.timeout;
    }
  }
  if (agent === 'cursor') {
    if (raw.failClosed === true) spec.onError = 'deny';
    else if (raw.failClosed !== undefined && raw.failClosed !== false)
      sink.warn(joinPath(path, 'failClosed'), `expected true or false, got ${renderValue(raw.failClosed)}`);
    delete spec.failClosed;
    if (raw.loop_limit !== undefined && raw.loop_limit !== null)
      sink.warn(
        joinPath(path, 'loop_limit'),
        "Cursor's loop_limit caps its own follow-up loop; hookwarden has no such loop and ignores it",
      );
    delete spec.loop_limit;
  }
  if (agent === 'copilot') {
    if (raw.type === 'prompt') {
      sink.warn(
        path,
        'Copilot CLI prompt hooks submit text as the user; they are not hooks hookwarden runs (skipped)',
        true,
      );
      return undefined;
    }
    if (spec.bash !== undefined) {
      if (spec.command !== undefined) {
        sink.error(path, 'give either "bash" or "command", not both');
        return undefined;
      }
      spec.command = spec.bash;
      delete spec.bash;
    }
    if (spec.timeoutSec !== undefined) {
      spec.timeout = spec.timeoutSec;
      delete spec.timeoutSec;
    }
    if (typeof spec.cwd === 'string' && typeof spec.command === 'string') {
      // Relative to the repository root (the sandbox root, the hook's working directory).
      spec.command = `cd -- ${quote(spec.cwd)} && ${spec.command}`;
    } else if (spec.cwd !== undefined) {
      sink.warn(joinPath(path, 'cwd'), `expected a directory path, got ${renderValue(spec.cwd)}`);
    }
    delete spec.cwd;
    if (isObject(spec.env)) {
      for (const [k, v] of Object.entries(spec.env))
        if (typeof v === 'string' && /\$/.test(v))
          sink.warn(
            joinPath(joinPath(path, 'env'), k),
            'is set as written: hookwarden expands no variables into a hook\'s environment (a host secret must not reach a hook); pass values explicitly or with "inheritEnv"',
          );
    }
    if (spec.type === undefined) spec.type = spec.url === undefined ? 'command' : 'http';
  }
  return spec;
}

/** A group or flat entry of an agent's file, its matcher in hookwarden's form for `name`'s event. */
export function agentEntry(agent: AgentName, name: string, event: AgentEvent, entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  if (agent === 'cursor') return cursorMatcher(name, event, entry);
  if (agent === 'gemini') {
    const { sequential: _s, ...rest } = entry;
    return rest;
  }
  return entry;
}
