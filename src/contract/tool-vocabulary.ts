// One vocabulary of tool names for every agent (docs/agents.md): a policy names a tool once, in Claude
// Code's spelling (Bash, Read, Write, Edit, Glob, Grep, WebFetch, WebSearch, Agent, mcp__server__tool),
// and it guards each agent's equivalent tool. Each agent's own names map onto it, and the keys of its
// tool input onto Claude Code's (`path` → `file_path`), so a Bash guard reads `toolInput.command`
// whatever agent sent the call. Dependency-free data and pure functions.

/** Agents whose tools have names of their own (Claude Code's are the vocabulary). */
const TOOL_AGENTS = ['codex', 'gemini', 'cursor', 'copilot'] as const;
export type ToolAgent = (typeof TOOL_AGENTS)[number];

/** One tool of an agent: its name there, the vocabulary's name, and tool-input keys renamed. */
interface ToolSpec {
  readonly native: string;
  readonly canonical: string;
  /** Native key → Claude Code's key (keys not named keep their name). */
  readonly keys?: Readonly<Record<string, string>>;
  /** Other names the agent's own matchers accept for the tool (Codex: `Write`/`Edit` for apply_patch). */
  readonly aliases?: readonly string[];
}

const COPILOT_PATHS = {
  path: 'file_path',
  old_str: 'old_string',
  new_str: 'new_string',
  file_text: 'content',
};

/** Every agent's tools. A name not listed is the same in the vocabulary (MCP tools, new tools). */
const TOOLS: Readonly<Record<ToolAgent, readonly ToolSpec[]>> = {
  // Codex 0.171.0: shell calls are hooked as `Bash`; `apply_patch` (Write/Edit matcher aliases) and
  // `spawn_agent` (Agent) keep their own names on stdin; MCP tools are mcp__server__tool.
  codex: [
    { native: 'apply_patch', canonical: 'Edit', aliases: ['Write', 'Edit'] },
    { native: 'spawn_agent', canonical: 'Agent', aliases: ['Agent'] },
  ],
  // Gemini CLI 0.61.0 (docs/reference/tools.md).
  gemini: [
    { native: 'run_shell_command', canonical: 'Bash' },
    { native: 'read_file', canonical: 'Read' },
    { native: 'write_file', canonical: 'Write' },
    { native: 'replace', canonical: 'Edit' },
    { native: 'glob', canonical: 'Glob' },
    { native: 'grep_search', canonical: 'Grep' },
    { native: 'search_file_content', canonical: 'Grep' },
    { native: 'list_directory', canonical: 'LS' },
    { native: 'web_fetch', canonical: 'WebFetch' },
    { native: 'google_web_search', canonical: 'WebSearch' },
    { native: 'write_todos', canonical: 'TodoWrite' },
  ],
  // Cursor's tool types (preToolUse matchers and tool_name).
  cursor: [
    { native: 'Shell', canonical: 'Bash' },
    { native: 'Read', canonical: 'Read' },
    { native: 'TabRead', canonical: 'Read' },
    { native: 'Write', canonical: 'Write' },
    { native: 'TabWrite', canonical: 'Write' },
    { native: 'StrReplace', canonical: 'Edit' },
    { native: 'Edit', canonical: 'Edit' },
    { native: 'Grep', canonical: 'Grep' },
    { native: 'Glob', canonical: 'Glob' },
    { native: 'Task', canonical: 'Agent' },
  ],
  // Copilot CLI 1.0.102 (toolName of its hooks: bash, edit, view, create, …).
  copilot: [
    { native: 'bash', canonical: 'Bash' },
    { native: 'powershell', canonical: 'PowerShell' },
    { native: 'view', canonical: 'Read', keys: COPILOT_PATHS },
    { native: 'create', canonical: 'Write', keys: COPILOT_PATHS },
    { native: 'edit', canonical: 'Edit', keys: COPILOT_PATHS },
    { native: 'str_replace_editor', canonical: 'Edit', keys: COPILOT_PATHS },
    { native: 'glob', canonical: 'Glob' },
    { native: 'grep', canonical: 'Grep' },
    { native: 'web_fetch', canonical: 'WebFetch' },
    { native: 'task', canonical: 'Agent' },
  ],
};

const BY_NATIVE = new Map<string, ToolSpec>();
const BY_CANONICAL = new Map<string, ToolSpec[]>();
for (const agent of TOOL_AGENTS) {
  for (const t of TOOLS[agent]) {
    BY_NATIVE.set(`${agent}\u0000${t.native}`, t);
    const key = `${agent}\u0000${t.canonical}`;
    const list = BY_CANONICAL.get(key);
    if (list === undefined) BY_CANONICAL.set(key, [t]);
    else list.push(t);
  }
}

/** The vocabulary's name of `agent`'s tool `native` (itself when the agent has no name of its own). */
export function canonicalToolName(agent: ToolAgent, native: string): string {
  return BY_NATIVE.get(`${agent}\u0000${native}`)?.canonical ?? native;
}

/** `agent`'s names for the vocabulary's tool `canonical` (empty: it calls it the same). */
function nativeToolNames(agent: ToolAgent, canonical: string): readonly string[] {
  return (BY_CANONICAL.get(`${agent}\u0000${canonical}`) ?? []).map((t) => t.native);
}

/**
 * The name `agent` gives the vocabulary's tool `canonical`: `preferred` when it is one of them (the
 * name the agent sent), else its first name, else `canonical` itself.
 */
export function nativeToolName(agent: ToolAgent, canonical: string, preferred?: string): string {
  const names = nativeToolNames(agent, canonical);
  if (preferred !== undefined && (names.includes(preferred) || preferred === canonical)) return preferred;
  return names[0] ?? canonical;
}

type Obj = Record<string, unknown>;

/** A tool input with `agent`'s keys renamed to Claude Code's (a null-prototype copy; unknown keys kept). */
export function canonicalToolInput(agent: ToolAgent, native: string, input: Obj): Obj {
  const keys = BY_NATIVE.get(`${agent}\u0000${native}`)?.keys;
  const out: Obj = Object.create(null);
  for (const [k, v] of Object.entries(input)) {
    const to = keys !== undefined && Object.hasOwn(keys, k) ? keys[k]! : k;
    if (!Object.hasOwn(out, to)) out[to] = v;
  }
  return out;
}

/** The inverse of canonicalToolInput: Claude Code's keys renamed back to `agent`'s for its tool `native`. */
export function nativeToolInput(agent: ToolAgent, native: string, input: Obj): Obj {
  const keys = BY_NATIVE.get(`${agent}\u0000${native}`)?.keys;
  const back: Record<string, string> = {};
  for (const [from, to] of Object.entries(keys ?? {})) back[to] = from;
  const out: Obj = Object.create(null);
  for (const [k, v] of Object.entries(input)) {
    const to = Object.hasOwn(back, k) ? back[k]! : k;
    if (!Object.hasOwn(out, to)) out[to] = v;
  }
  return out;
}

/** An MCP tool of the vocabulary (`mcp__server__tool`): its server and tool, else undefined. */
export function mcpParts(name: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m === null ? undefined : { server: m[1]!, tool: m[2]! };
}

/** The server name the vocabulary gives an MCP tool whose agent does not say which server it is. */
export const UNKNOWN_MCP_SERVER = 'unknown';

/** How each agent names an MCP tool (the vocabulary's mcp__server__tool). */
const MCP_NAMES: Readonly<Record<ToolAgent, (server: string, tool: string) => readonly string[]>> = {
  codex: (s, t) => [`mcp__${s}__${t}`],
  gemini: (s, t) => [`mcp_${s}_${t}`],
  cursor: (_s, t) => [`MCP:${t}`, t],
  copilot: (s, t) => [`${s}-${t}`],
};

/**
 * Every name a call of the vocabulary's tool `toolName` answers to in a file of `agent`: the name
 * itself, the agent's own names for it and the names its matchers also accept. (Claude Code's legacy
 * names are the matcher's own business.)
 */
export function toolNamesIn(agent: ToolAgent, toolName: string): readonly string[] {
  const names = new Set([toolName]);
  for (const t of BY_CANONICAL.get(`${agent}\u0000${toolName}`) ?? []) {
    names.add(t.native);
    for (const a of t.aliases ?? []) names.add(a);
  }
  // One of the agent's own names sent as it is: its vocabulary name too.
  const canonical = canonicalToolName(agent, toolName);
  names.add(canonical);
  const mcp = mcpParts(toolName);
  if (mcp !== undefined) for (const n of MCP_NAMES[agent](mcp.server, mcp.tool)) names.add(n);
  return [...names];
}

/** The name `agent` gives the vocabulary's MCP tool `name` (undefined: not an MCP tool). */
export function nativeMcpName(agent: ToolAgent, name: string): string | undefined {
  const mcp = mcpParts(name);
  return mcp === undefined ? undefined : MCP_NAMES[agent](mcp.server, mcp.tool)[0];
}
