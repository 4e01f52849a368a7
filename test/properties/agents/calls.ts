// The calls of the invariant-7 properties: what a tool call truly is (its kind, its MCP server and
// tool, the path its tool reads), and that call as each agent sends it (its tool names, its MCP form,
// its argument keys and their aliases, its events). The truth is the generator's; the agents' forms
// lose some of it (Cursor names no MCP server), which is what a policy guard written once must survive.
import fc from 'fast-check';

export type Agent = 'claude-code' | 'codex' | 'gemini' | 'cursor' | 'copilot';
type Obj = Record<string, unknown>;

/** A call as it truly is. */
export interface TrueCall {
  readonly kind: 'shell' | 'read' | 'write' | 'mcp' | 'other';
  readonly command?: string | undefined;
  /** The path the agent's tool reads (read, write). */
  readonly path?: string | undefined;
  readonly server?: string | undefined;
  readonly tool?: string | undefined;
  /** Copilot: the argument also under the vocabulary's key, with this value (an alias the tool ignores). */
  readonly alias?: string | undefined;
  /** Gemini: its input names the MCP server in mcp_context. */
  readonly context?: boolean | undefined;
  /** Cursor: the dedicated event (beforeShellExecution…) rather than preToolUse. */
  readonly dedicated?: boolean | undefined;
}

const SERVERS = ['github', 'my-db', 'a_b', 'linear'] as const;
const TOOLS = ['create_issue', 'query', 'list-items'] as const;
const PATHS = ['/work/README.md', '/work/.env.secret', '/work/src/a.ts'] as const;
const COMMANDS = ['ls -la', 'rm -rf /', 'git push', 'echo secret'] as const;

export const trueCall: fc.Arbitrary<TrueCall> = fc.oneof(
  fc.record({
    kind: fc.constant('shell' as const),
    command: fc.constantFrom(...COMMANDS),
    dedicated: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('read' as const, 'write' as const),
    path: fc.constantFrom(...PATHS),
    alias: fc.option(fc.constantFrom(...PATHS), { nil: undefined }),
    dedicated: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('mcp' as const),
    server: fc.constantFrom(...SERVERS),
    tool: fc.constantFrom(...TOOLS),
    context: fc.boolean(),
    dedicated: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('other' as const) }),
);

/** The vocabulary's name of the true call (what a policy guard is written against). */
export function canonicalName(c: TrueCall): string {
  if (c.kind === 'shell') return 'Bash';
  if (c.kind === 'read') return 'Read';
  if (c.kind === 'write') return 'Write';
  if (c.kind === 'mcp') return `mcp__${c.server}__${c.tool}`;
  return 'Glob';
}

/** An agent's call: the event it fires, its tool's name, and its own input fields. */
export interface AgentCall {
  readonly event: string;
  readonly tool?: string | undefined;
  readonly command?: string | undefined;
  readonly fields: Obj;
}

const CLAUDE_TOOLS = { shell: 'Bash', read: 'Read', write: 'Write', other: 'Glob' } as const;

function claudeLike(c: TrueCall, codex: boolean): AgentCall {
  const tool =
    c.kind === 'mcp'
      ? `mcp__${c.server}__${c.tool}`
      : codex && c.kind === 'write'
        ? 'apply_patch'
        : CLAUDE_TOOLS[c.kind];
  const input: Obj =
    c.kind === 'shell'
      ? { command: c.command }
      : codex && c.kind === 'write'
        ? { command: `*** Begin Patch\n*** Add File: ${c.path}\n+x\n*** End Patch` }
        : c.kind === 'read' || c.kind === 'write'
          ? { file_path: c.path }
          : { q: 1 };
  return { event: 'PreToolUse', tool, command: c.command, fields: { tool_name: tool, tool_input: input } };
}

function gemini(c: TrueCall): AgentCall {
  const names = {
    shell: 'run_shell_command',
    read: 'read_file',
    write: 'write_file',
    other: 'glob',
  } as const;
  const tool = c.kind === 'mcp' ? `mcp_${c.server}_${c.tool}` : names[c.kind];
  const input: Obj =
    c.kind === 'shell' ? { command: c.command } : c.path !== undefined ? { file_path: c.path } : {};
  const fields: Obj = { tool_name: tool, tool_input: input };
  if (c.kind === 'mcp' && c.context === true)
    fields.mcp_context = { server_name: c.server, tool_name: c.tool };
  return { event: 'BeforeTool', tool, fields };
}

function cursor(c: TrueCall): AgentCall {
  if (c.kind === 'shell' && c.dedicated === true)
    return {
      event: 'beforeShellExecution',
      tool: 'Bash',
      command: c.command,
      fields: { command: c.command, cwd: '/work' },
    };
  if (c.kind === 'read' && c.dedicated === true)
    return { event: 'beforeReadFile', tool: 'Read', fields: { file_path: c.path, content: '' } };
  if (c.kind === 'mcp' && c.dedicated === true)
    return {
      event: 'beforeMCPExecution',
      tool: c.tool,
      fields: { tool_name: c.tool, tool_input: '{"q":1}', command: 'npx server' },
    };
  const names = { shell: 'Shell', read: 'Read', write: 'Write', other: 'Glob' } as const;
  const tool = c.kind === 'mcp' ? `MCP:${c.tool}` : names[c.kind];
  const input: Obj =
    c.kind === 'shell' ? { command: c.command } : c.path !== undefined ? { file_path: c.path } : {};
  return { event: 'preToolUse', tool, command: c.command, fields: { tool_name: tool, tool_input: input } };
}

function copilot(c: TrueCall): AgentCall {
  const names = { shell: 'bash', read: 'view', write: 'create', other: 'glob' } as const;
  const tool = c.kind === 'mcp' ? `${c.server}-${c.tool}` : names[c.kind];
  const args: Obj =
    c.kind === 'shell'
      ? { command: c.command }
      : c.path !== undefined
        ? { ...(c.alias === undefined ? {} : { file_path: c.alias }), path: c.path }
        : {};
  return { event: 'preToolUse', tool, fields: { toolName: tool, toolArgs: JSON.stringify(args) } };
}

/** The call as `agent` sends it. */
export function agentCall(agent: Agent, c: TrueCall): AgentCall {
  if (agent === 'claude-code' || agent === 'codex') return claudeLike(c, agent === 'codex');
  if (agent === 'gemini') return gemini(c);
  if (agent === 'cursor') return cursor(c);
  return copilot(c);
}
