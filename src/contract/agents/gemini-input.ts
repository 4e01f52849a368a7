// Gemini CLI's hook input (gemini.ts): a Gemini input → the dispatch input (the vocabulary's tool
// names, the origin kept), and what a hook written for Gemini reads on stdin. Dependency-free.
import { isObject } from '../messages.js';
import {
  canonicalToolInput,
  mcpParts,
  nativeMcpName,
  nativeToolInput,
  nativeToolName,
  placeToolName,
  UNPLACED_TOOL_KEY,
  type UnplacedTool,
} from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import { dispatchInput, isoTime, knownEvent, objectField, ownOrigin, str, stringField } from './common.js';
import { EVENTS } from './gemini-events.js';

type Obj = Record<string, unknown>;

/**
 * The vocabulary's name of a Gemini tool call: an MCP tool by its mcp_context (the server and the
 * tool, as Gemini names them); without one, by its name mcp_{server}_{tool}, unplaced when a `_`
 * could end the server's name in more than one place.
 */
function toolOf(raw: Obj): { toolName: string; unplaced?: UnplacedTool } | undefined {
  const name = str(raw.tool_name);
  if (name === undefined) return undefined;
  const mcp = isObject(raw.mcp_context) ? raw.mcp_context : undefined;
  const server = str(mcp?.server_name);
  const tool = str(mcp?.tool_name);
  if (server !== undefined && tool !== undefined) return { toolName: `mcp__${server}__${tool}` };
  return placeToolName('gemini', name);
}

/** Gemini's name for the vocabulary's tool (the one it sent, when the call came from Gemini). */
export function geminiTool(toolName: string, sent: string | undefined): string {
  if (mcpParts(toolName) !== undefined) return sent ?? nativeMcpName('gemini', toolName)!;
  return nativeToolName('gemini', toolName, sent);
}

export function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? event, 'Gemini CLI');
  for (const f of ['session_id', 'cwd', 'transcript_path', 'tool_name', 'prompt', 'prompt_response'])
    stringField(raw, f, event);
  const fields: Obj = {};
  const time = isoTime(raw.timestamp);
  if (time !== undefined) fields.timestamp = time;
  const name = str(raw.tool_name);
  const placed = toolOf(raw);
  if (name !== undefined && placed !== undefined) {
    fields.toolName = placed.toolName;
    if (placed.unplaced !== undefined) fields[UNPLACED_TOOL_KEY] = placed.unplaced;
    fields.toolInput = canonicalToolInput('gemini', name, objectField(raw, 'tool_input', event) ?? {});
  }
  if (raw.tool_response !== undefined) {
    fields.toolResult = raw.tool_response;
    fields.ok = !(
      isObject(raw.tool_response) &&
      raw.tool_response.error !== undefined &&
      raw.tool_response.error !== null
    );
  }
  if (raw.prompt_response !== undefined) fields.response = raw.prompt_response;
  if (raw.llm_request !== undefined) fields.request = raw.llm_request;
  if (raw.llm_response !== undefined) fields.response = raw.llm_response;
  const consumed = [
    'tool_name',
    'tool_input',
    'tool_response',
    'prompt_response',
    'timestamp',
    'llm_request',
    'llm_response',
  ];
  return { event: e.dispatch, input: dispatchInput('gemini', event, raw, fields, consumed) };
}

export function renderInput(event: string, input: HookInput): Obj {
  const own = ownOrigin(input as Obj, 'gemini');
  const out: Obj =
    own !== undefined
      ? { ...own.input }
      : {
          session_id: input.sessionId,
          transcript_path: str(input.transcriptPath) ?? str(input.transcript_path) ?? '',
          cwd: input.cwd,
          timestamp: input.timestamp,
        };
  out.hook_event_name = event;
  if (typeof input.toolName === 'string') {
    const sent = str(own?.input.tool_name);
    out.tool_name = geminiTool(input.toolName, sent);
    out.tool_input = nativeToolInput('gemini', str(out.tool_name)!, input.toolInput ?? {});
  }
  if (event === 'AfterTool' && input.toolResult !== undefined) out.tool_response = input.toolResult;
  if (event === 'BeforeAgent' || event === 'AfterAgent') out.prompt = input.prompt ?? out.prompt ?? '';
  if (event === 'AfterAgent') out.prompt_response = input.response ?? out.prompt_response ?? '';
  if (event === 'BeforeModel' || event === 'AfterModel' || event === 'BeforeToolSelection')
    out.llm_request = input.request ?? out.llm_request;
  if (event === 'AfterModel') out.llm_response = input.response ?? out.llm_response;
  for (const [field, from] of [
    ['source', 'source'],
    ['reason', 'reason'],
    ['notification_type', 'notificationType'],
    ['message', 'message'],
    ['details', 'details'],
  ] as const)
    if (out[field] === undefined && input[from] !== undefined) out[field] = input[from];
  if (event === 'PreCompress' && out.trigger === undefined) out.trigger = input.compaction?.trigger ?? 'auto';
  return out;
}
