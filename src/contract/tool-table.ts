// THE one table of every agent's tool names (docs/agents.md "One policy, every agent" is tested
// against it): for each agent, its names of the vocabulary's tools (Claude Code's spelling: Bash,
// Read, Write, Edit, Glob, Grep, WebFetch, WebSearch, Agent), the keys of a tool's input it names
// otherwise (Copilot's `path` is `file_path`), the names its own matchers also accept, and how it
// names an MCP tool — and whether that name says which server the tool is on. A name an agent gives
// that the table cannot turn into ONE vocabulary name is "unplaced" (tool-vocabulary.ts): every guard
// that could match one of the names it could be runs. Dependency-free data.

/** Agents whose tools have names of their own (Claude Code's are the vocabulary). */
export const TOOL_AGENTS = ['codex', 'gemini', 'cursor', 'copilot'] as const;
export type ToolAgent = (typeof TOOL_AGENTS)[number];

/** One tool of an agent: its name there, the vocabulary's name, and tool-input keys renamed. */
export interface ToolSpec {
  readonly native: string;
  readonly canonical: string;
  /** Native key → Claude Code's key (keys not named keep their name). */
  readonly keys?: Readonly<Record<string, string>>;
  /** Other names the agent's own matchers accept for the tool (Codex: `Write`/`Edit` for apply_patch). */
  readonly aliases?: readonly string[];
}

/** How an agent names an MCP tool, and what a name it sends can be told about. */
export interface McpNaming {
  /** The form, for the docs: `mcp__{server}__{tool}`. */
  readonly form: string;
  /** The names the agent gives tool `tool` of server `server` (its matchers see the first). */
  names(server: string, tool: string): readonly string[];
  /**
   * Whether a name the agent sent is one of its MCP tools, and which server and tool it could be:
   * every split of the name its form allows. Undefined: not an MCP tool's name.
   */
  splits(sent: string): readonly { server: string; tool: string }[] | undefined;
  /** Why a name of this form may not say its server (for the guard, and the docs). */
  readonly unplacedWhy: string;
}

export interface AgentTools {
  readonly title: string;
  /** The version of the agent the names were read from. */
  readonly version: string;
  readonly tools: readonly ToolSpec[];
  readonly mcp: McpNaming;
}

const COPILOT_EDIT = {
  path: 'file_path',
  old_str: 'old_string',
  new_str: 'new_string',
  file_text: 'content',
};

/** Every split of `rest` at `sep` into a non-empty server and a non-empty tool. */
function splitsAt(rest: string, sep: string): { server: string; tool: string }[] {
  const out: { server: string; tool: string }[] = [];
  for (let i = rest.indexOf(sep); i > 0; i = rest.indexOf(sep, i + 1)) {
    const tool = rest.slice(i + sep.length);
    if (tool !== '') out.push({ server: rest.slice(0, i), tool });
  }
  return out;
}

/** The vocabulary's own form (Claude Code, Codex): `mcp__server__tool`, split at the first `__`. */
const VOCABULARY_FORM: McpNaming = {
  form: 'mcp__{server}__{tool}',
  names: (s, t) => [`mcp__${s}__${t}`],
  splits: (sent) => {
    const m = /^mcp__(.+?)__(.+)$/.exec(sent);
    return m === null ? undefined : [{ server: m[1]!, tool: m[2]! }];
  },
  unplacedWhy: '',
};

export const TOOL_TABLE: Readonly<Record<ToolAgent | 'claude-code', AgentTools>> = {
  'claude-code': {
    title: 'Claude Code',
    version: '2.1.337',
    tools: [],
    mcp: VOCABULARY_FORM,
  },
  // Codex 0.171.0: shell calls are hooked as `Bash`; `apply_patch` (Write/Edit matcher aliases) and
  // `spawn_agent` (Agent) keep their own names on stdin; MCP tools are mcp__server__tool.
  codex: {
    title: 'Codex',
    version: '0.171.0',
    tools: [
      { native: 'Bash', canonical: 'Bash' },
      { native: 'apply_patch', canonical: 'Edit', aliases: ['Write', 'Edit'] },
      { native: 'spawn_agent', canonical: 'Agent', aliases: ['Agent'] },
    ],
    mcp: VOCABULARY_FORM,
  },
  // Gemini CLI 0.61.0 (docs/reference/tools.md). MCP tools: mcp_{server}_{tool}
  // (tools/mcp-tool.js, generateValidName: other characters become `_`, long names are cut in the
  // middle with `...`); the input's mcp_context names the server and the tool when Gemini knows them.
  gemini: {
    title: 'Gemini CLI',
    version: '0.61.0',
    tools: [
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
    mcp: {
      form: 'mcp_{server}_{tool}',
      names: (s, t) => [`mcp_${s}_${t}`],
      splits: (sent) => (sent.startsWith('mcp_') ? splitsAt(sent.slice(4), '_') : undefined),
      unplacedWhy:
        "Gemini CLI names an MCP tool mcp_{server}_{tool}, and a server's name may hold `_` (the input had no mcp_context to say which it is)",
    },
  },
  // Cursor's tool types (preToolUse matchers and tool_name). MCP tools: `MCP:{tool}` on preToolUse,
  // the bare tool name on beforeMCPExecution (whose input names the server's url or command, not
  // the server).
  cursor: {
    title: 'Cursor',
    version: '3.9.16',
    tools: [
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
    mcp: {
      form: 'MCP:{tool}',
      names: (_s, t) => [`MCP:${t}`, t],
      splits: (sent) => (sent.startsWith('MCP:') ? splitsAt(sent.slice(4), ':') : undefined),
      unplacedWhy: 'Cursor does not say which MCP server a tool is on',
    },
  },
  // Copilot CLI 1.0.102 (toolName of its hooks: bash, edit, view, create, …; its hooks reference's
  // "Tool names for hook matching"). MCP tools: {server}-{tool}.
  copilot: {
    title: 'Copilot CLI',
    version: '1.0.102',
    tools: [
      { native: 'bash', canonical: 'Bash' },
      { native: 'powershell', canonical: 'PowerShell' },
      { native: 'view', canonical: 'Read', keys: { path: 'file_path' } },
      { native: 'create', canonical: 'Write', keys: { path: 'file_path', file_text: 'content' } },
      { native: 'edit', canonical: 'Edit', keys: COPILOT_EDIT },
      { native: 'str_replace_editor', canonical: 'Edit', keys: COPILOT_EDIT },
      { native: 'glob', canonical: 'Glob' },
      { native: 'grep', canonical: 'Grep' },
      { native: 'web_fetch', canonical: 'WebFetch' },
      { native: 'task', canonical: 'Agent' },
    ],
    mcp: {
      form: '{server}-{tool}',
      names: (s, t) => [`${s}-${t}`],
      splits: (sent) => (sent.includes('-') ? splitsAt(sent, '-') : undefined),
      unplacedWhy: "Copilot CLI names an MCP tool {server}-{tool}, and a server's name may hold `-`",
    },
  },
};
