// Cursor's hook input (cursor.ts): a Cursor input → the dispatch input (the vocabulary's tool names,
// the origin kept), and what a hook written for Cursor reads on stdin. Dependency-free.
import { isObject } from '../messages.js';
import {
  canonicalToolInput,
  mcpParts,
  nativeToolInput,
  nativeToolName,
  placeToolName,
  UNPLACED_TOOL_KEY,
  type UnplacedTool,
  unplacedMcpTool,
} from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchInput,
  jsonObjectField,
  knownEvent,
  ownOrigin,
  parseMaybeJson,
  str,
  stringField,
} from './common.js';
import { EVENTS, observe } from './cursor-events.js';
import type { AgentEvent } from './protocol.js';

type Obj = Record<string, unknown>;

/**
 * The tool a Cursor call is about: the event's own, else its `tool_name`. An MCP tool is unplaced:
 * Cursor does not say which server it is on, so every guard that could match it runs.
 */
function toolOf(e: AgentEvent, raw: Obj): { toolName: string; unplaced?: UnplacedTool } | undefined {
  const sent = str(raw.tool_name);
  if (e.tool === 'mcp') return sent === undefined ? undefined : unplacedMcpTool('cursor', sent);
  if (e.tool !== undefined) return { toolName: e.tool };
  return sent === undefined ? undefined : placeToolName('cursor', sent);
}

/** Cursor's name for the vocabulary's tool (the one it sent, when the call came from Cursor). */
export function cursorTool(toolName: string, sent: string | undefined): string {
  const mcp = mcpParts(toolName);
  if (mcp !== undefined) return sent ?? `MCP:${mcp.tool}`;
  return nativeToolName('cursor', toolName, sent);
}

export function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? event, 'Cursor');
  for (const f of ['conversation_id', 'session_id', 'cwd', 'tool_name', 'command', 'prompt', 'file_path'])
    stringField(raw, f, event);
  const roots = Array.isArray(raw.workspace_roots)
    ? raw.workspace_roots.filter((r) => typeof r === 'string')
    : [];
  const cwd = str(raw.cwd) || (roots[0] as string | undefined);
  const fields: Obj = {
    sessionId: str(raw.session_id) || str(raw.conversation_id),
    cwd: cwd === '' ? undefined : cwd,
  };
  const placed = toolOf(e, raw);
  const consumed = ['tool_name', 'tool_input', 'tool_output', 'result_json', 'error_message', 'session_id'];
  if (placed !== undefined) {
    const { toolName } = placed;
    fields.toolName = toolName;
    if (placed.unplaced !== undefined) fields[UNPLACED_TOOL_KEY] = placed.unplaced;
    if (e.tool === 'Bash') fields.toolInput = { command: str(raw.command) ?? '' };
    else if (e.tool === 'Read') fields.toolInput = { file_path: str(raw.file_path) ?? '' };
    else if (e.tool === 'Write')
      fields.toolInput = {
        file_path: str(raw.file_path) ?? '',
        ...(raw.edits === undefined ? {} : { edits: raw.edits }),
      };
    else {
      const input = jsonObjectField(raw, 'tool_input', event) ?? {};
      fields.toolInput = canonicalToolInput('cursor', str(raw.tool_name) ?? toolName, input);
    }
  }
  if (raw.tool_output !== undefined) fields.toolResult = parseMaybeJson(raw.tool_output);
  if (raw.result_json !== undefined) fields.toolResult = parseMaybeJson(raw.result_json);
  if (e.tool === 'Bash' && raw.output !== undefined) fields.toolResult = raw.output;
  if (event === 'postToolUseFailure') fields.error = raw.error_message;
  if (raw.subagent_type !== undefined) fields.agentType = raw.subagent_type;
  if ((event === 'afterAgentResponse' || event === 'afterAgentThought') && raw.text !== undefined)
    fields.response = raw.text;
  if (event === 'subagentStop' && raw.summary !== undefined) fields.subagentResult = raw.summary;
  return { event: e.dispatch, input: dispatchInput('cursor', event, raw, fields, consumed) };
}

export function renderInput(event: string, input: HookInput): Obj {
  const own = ownOrigin(input as Obj, 'cursor');
  const e = Object.hasOwn(EVENTS, event) ? EVENTS[event]! : observe(event);
  const out: Obj =
    own !== undefined
      ? { ...own.input }
      : {
          conversation_id: input.sessionId,
          generation_id: '',
          model: '',
          session_id: input.sessionId,
          cursor_version: '',
          workspace_roots: [input.cwd],
          user_email: null,
          transcript_path: str(input.transcriptPath) ?? null,
        };
  out.hook_event_name = event;
  const ti: Obj = isObject(input.toolInput) ? input.toolInput : {};
  if (typeof input.toolName === 'string') {
    if (e.tool === 'Bash') {
      out.command = str(ti.command) ?? '';
      out.cwd = str(out.cwd) ?? input.cwd;
    } else if (e.tool === 'Read' || e.tool === 'Write') {
      out.file_path = str(ti.file_path) ?? '';
      if (e.tool === 'Write' && ti.edits !== undefined) out.edits = ti.edits;
    } else {
      const name = cursorTool(input.toolName, str(own?.input.tool_name));
      out.tool_name = e.tool === 'mcp' ? name.replace(/^MCP:/, '') : name;
      const native = nativeToolInput('cursor', name, ti);
      out.tool_input = e.tool === 'mcp' ? JSON.stringify(native) : native;
    }
  }
  if (input.toolResult !== undefined && !e.canBlock) {
    const text = typeof input.toolResult === 'string' ? input.toolResult : JSON.stringify(input.toolResult);
    if (e.tool === 'Bash') out.output = text;
    else if (e.tool === 'mcp') out.result_json = text;
    else out.tool_output = text;
  }
  if (event === 'beforeSubmitPrompt') out.prompt = input.prompt ?? '';
  if (event === 'postToolUseFailure') out.error_message = out.error_message ?? String(input.error ?? '');
  if ((event === 'afterAgentResponse' || event === 'afterAgentThought') && out.text === undefined)
    out.text = typeof input.response === 'string' ? input.response : '';
  if ((event === 'subagentStart' || event === 'subagentStop') && out.subagent_type === undefined)
    out.subagent_type = input.agentType ?? input.subagentName ?? '';
  if (event === 'stop' && out.status === undefined) out.status = 'completed';
  if (event === 'preCompact' && out.trigger === undefined) out.trigger = input.compaction?.trigger ?? 'auto';
  return out;
}
