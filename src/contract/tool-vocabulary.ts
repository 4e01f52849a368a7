// One vocabulary of tool names for every agent (docs/agents.md): a policy names a tool once, in Claude
// Code's spelling (Bash, Read, Write, Edit, Glob, Grep, WebFetch, WebSearch, Agent, mcp__server__tool),
// and it guards each agent's equivalent tool. The names are one table (tool-table.ts); these are its
// readings: an agent's name → the vocabulary's, the keys of a tool input → Claude Code's (`path` →
// `file_path`), and back. A name the table cannot turn into ONE vocabulary name (an MCP tool whose
// server the agent does not say, or whose server and tool a separator cannot tell apart) is
// "unplaced": the dispatch input says so (`unplacedTool`) and every guard that could match it runs.
// Dependency-free data and pure functions.
import { jsonEqual } from './json-equal.js';
import { type McpNaming, TOOL_AGENTS, TOOL_TABLE, type ToolAgent, type ToolSpec } from './tool-table.js';

export type { ToolAgent } from './tool-table.js';

const BY_NATIVE = new Map<string, ToolSpec>();
const BY_CANONICAL = new Map<string, ToolSpec[]>();
for (const agent of TOOL_AGENTS) {
  for (const t of TOOL_TABLE[agent].tools) {
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

/**
 * A tool input with `agent`'s keys renamed to Claude Code's (a null-prototype copy; unknown keys
 * kept). Where two keys name one argument (Copilot's `path` and `file_path`), the value is the one
 * the agent's tool reads: its own key's.
 */
export function canonicalToolInput(agent: ToolAgent, native: string, input: Obj): Obj {
  const keys = BY_NATIVE.get(`${agent}\u0000${native}`)?.keys;
  const out: Obj = Object.create(null);
  for (const [k, v] of Object.entries(input)) {
    const own = keys !== undefined && Object.hasOwn(keys, k);
    const to = own ? keys[k]! : k;
    if (own || !Object.hasOwn(out, to)) out[to] = v;
  }
  return out;
}

/**
 * Keys of a tool input that name one argument with different values (Copilot's `path` and
 * `file_path`): a guard reading one name must not pass a call whose tool reads the other. Each
 * conflict as `"path" and "file_path"`; empty when there is none.
 */
export function toolInputConflicts(agent: ToolAgent, native: string, input: Obj): string[] {
  const keys = BY_NATIVE.get(`${agent}\u0000${native}`)?.keys;
  if (keys === undefined) return [];
  const out: string[] = [];
  for (const [from, to] of Object.entries(keys))
    if (Object.hasOwn(input, from) && Object.hasOwn(input, to) && !jsonEqual(input[from], input[to]))
      out.push(`"${from}" and "${to}"`);
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
const UNKNOWN_MCP_SERVER = 'unknown';

const naming = (agent: ToolAgent): McpNaming => TOOL_TABLE[agent].mcp;

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
  if (mcp !== undefined) for (const n of naming(agent).names(mcp.server, mcp.tool)) names.add(n);
  return [...names];
}

/** The name `agent` gives the vocabulary's MCP tool `name` (undefined: not an MCP tool). */
export function nativeMcpName(agent: ToolAgent, name: string): string | undefined {
  const mcp = mcpParts(name);
  return mcp === undefined ? undefined : naming(agent).names(mcp.server, mcp.tool)[0];
}

/**
 * A tool name hookwarden cannot turn into one vocabulary name, as a guard is told (the dispatch
 * input's `unplacedTool`): every guard whose matcher or `if` could match one of the names it could be
 * runs (trust invariant 7).
 */
export interface UnplacedTool {
  /** The name the agent sent. */
  readonly sent: string;
  /** Why it cannot be placed. */
  readonly why: string;
  /** The vocabulary names it could be. */
  readonly candidates: readonly string[];
  /** It could be an MCP tool on a server nobody named: the tool's name there ("*": any tool). */
  readonly anyServer?: string;
}

/** The input key that holds an UnplacedTool. */
export const UNPLACED_TOOL_KEY = 'unplacedTool';

/** A name `agent` sent, in the vocabulary: the name, and what else it could be when it is unplaced. */
export function placeToolName(agent: ToolAgent, sent: string): { toolName: string; unplaced?: UnplacedTool } {
  const mcp = naming(agent);
  const splits = mcp.splits(sent);
  if (splits === undefined || BY_NATIVE.has(`${agent}\u0000${sent}`))
    return { toolName: canonicalToolName(agent, sent) };
  const candidates = splits.map((s) => `mcp__${s.server}__${s.tool}`);
  if (agent === 'cursor') {
    // `MCP:{tool}`: no server at all; `MCP:a:b` may be server a's tool b, or tool "a:b".
    const tool = sent.slice('MCP:'.length);
    return {
      toolName: `mcp__${UNKNOWN_MCP_SERVER}__${tool}`,
      unplaced: { sent, why: mcp.unplacedWhy, candidates, anyServer: tool },
    };
  }
  // Gemini cuts a long name in the middle ("..."): the server and the tool are both unknown.
  const cut = agent === 'gemini' && sent.includes('...');
  // Gemini's `mcp_` prefix is an MCP tool's for sure; Copilot's dash may be part of any other name.
  if (agent === 'gemini' && candidates.length === 1 && !cut) return { toolName: candidates[0]! };
  const why = cut
    ? 'Gemini CLI cut this long MCP tool name short ("..."): its server and tool are unknown'
    : mcp.unplacedWhy;
  return {
    toolName: sent,
    unplaced: { sent, why, candidates, ...(cut ? { anyServer: '*' } : {}) },
  };
}

/** An MCP tool of a server nobody named (Cursor's beforeMCPExecution sends the bare tool name). */
export function unplacedMcpTool(
  agent: ToolAgent,
  tool: string,
): { toolName: string; unplaced: UnplacedTool } {
  return {
    toolName: `mcp__${UNKNOWN_MCP_SERVER}__${tool}`,
    unplaced: { sent: tool, why: naming(agent).unplacedWhy, candidates: [], anyServer: tool },
  };
}

/** What a matcher tests for one call: its name, or every name an unplaced one could be. */
export type ToolSubject = string | { readonly names: readonly string[]; readonly anyServer?: string };

/**
 * The subject of a call: `toolName`, and when the input says the name is unplaced, the names it could
 * be too (a malformed `unplacedTool` adds nothing it does not say: it can only make more guards run).
 */
export function toolSubjectOf(input: {
  readonly toolName?: unknown;
  readonly [k: string]: unknown;
}): ToolSubject | undefined {
  const name = typeof input.toolName === 'string' ? input.toolName : undefined;
  const u = input[UNPLACED_TOOL_KEY];
  if (typeof u !== 'object' || u === null) return name;
  const { candidates, anyServer } = u as { candidates?: unknown; anyServer?: unknown };
  const names = [
    ...(name === undefined ? [] : [name]),
    ...(Array.isArray(candidates) ? candidates.filter((c): c is string => typeof c === 'string') : []),
  ];
  return typeof anyServer === 'string' ? { names, anyServer } : { names };
}
