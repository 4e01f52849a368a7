// Claude Code's legacy tool names (2.1.333, its `Task: "Agent"` table): a matcher or `if` rule that
// names a tool by an old name still matches the tool's calls, and one that names the current tool
// matches a call that arrives under the old name. Dependency-free data.

/** Legacy name → current name, as Claude Code 2.1.333 ships it. */
export const CLAUDE_CODE_TOOL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
});

const LEGACY_OF = new Map<string, string[]>();
for (const [legacy, current] of Object.entries(CLAUDE_CODE_TOOL_ALIASES)) {
  const list = LEGACY_OF.get(current);
  if (list === undefined) LEGACY_OF.set(current, [legacy]);
  else list.push(legacy);
}

/** The current name of a tool named `name` (itself when it has no other). */
export function currentToolName(name: string): string {
  return Object.hasOwn(CLAUDE_CODE_TOOL_ALIASES, name) ? CLAUDE_CODE_TOOL_ALIASES[name]! : name;
}

/** Every name a call of `name` answers to: the name as sent, its current name and that one's legacy names. */
export function toolNames(name: string): readonly string[] {
  const current = currentToolName(name);
  const legacy = LEGACY_OF.get(current);
  if (legacy === undefined) return current === name ? [name] : [name, current];
  return [...new Set([name, current, ...legacy])];
}
