// Copilot CLI's hook input (copilot.ts): a Copilot input → the dispatch input (the vocabulary's tool
// names and argument keys, the origin kept), and what a hook written for Copilot reads on stdin.
// Dependency-free.
import { isObject } from '../messages.js';
import {
  canonicalToolInput,
  nativeToolInput,
  nativeToolName,
  placeToolName,
  toolInputConflicts,
  UNPLACED_TOOL_KEY,
} from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchInput,
  isoTime,
  jsonObjectField,
  knownEvent,
  ownOrigin,
  parseMaybeJson,
  str,
  stringField,
} from './common.js';
import { COMPAT, camelOf, EVENTS } from './copilot-events.js';
import { AGENT_ORIGIN_KEY, AgentInputProblem, type AgentOrigin } from './protocol.js';

type Obj = Record<string, unknown>;

function camelToDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? raw.hookEventName ?? event, 'Copilot CLI');
  for (const f of ['sessionId', 'cwd', 'toolName', 'prompt', 'transcriptPath']) stringField(raw, f, event);
  const fields: Obj = { timestamp: isoTime(raw.timestamp) };
  const sent = str(raw.toolName);
  if (sent !== undefined) {
    const placed = placeToolName('copilot', sent);
    fields.toolName = placed.toolName;
    if (placed.unplaced !== undefined) fields[UNPLACED_TOOL_KEY] = placed.unplaced;
    const args = jsonObjectField(raw, 'toolArgs', event) ?? {};
    const conflicts = toolInputConflicts('copilot', sent, args);
    // Two keys for one argument: a guard reading one must not pass a call whose tool reads the other.
    if (conflicts.length > 0 && e.canBlock)
      throw new AgentInputProblem(
        `toolArgs: ${conflicts.join(', ')} name the same argument of ${sent} with different values (the tool reads the first): denied`,
        event,
      );
    fields.toolInput = canonicalToolInput('copilot', sent, args);
  }
  if (raw.toolResult !== undefined) {
    fields.toolResult = parseMaybeJson(raw.toolResult);
    const type = isObject(fields.toolResult) ? fields.toolResult.resultType : undefined;
    if (event === 'postToolUse') fields.ok = type === undefined || type === 'success';
  }
  if (event === 'postToolUse' && raw.resultType !== undefined) fields.ok = raw.resultType === 'success';
  if (event === 'subagentStop' || event === 'subagentStart') {
    fields.subagentName = str(raw.agentName);
    fields.agentType = str(raw.agentType) ?? str(raw.agentName);
    if (event === 'subagentStop') fields.subagentResult = raw.response;
  }
  if (event === 'agentStop' && raw.stopHookActive !== undefined) fields.stop_hook_active = raw.stopHookActive;
  // A postToolUse whose result failed is an AfterTool with ok false (PostToolUseFailure hooks see it).
  const dispatch = event === 'postToolUse' && fields.ok === false ? 'PostToolUseFailure' : e.dispatch;
  const consumed = ['toolName', 'toolArgs', 'toolResult', 'timestamp', 'hookEventName'];
  return { event: dispatch, input: dispatchInput('copilot', event, raw, fields, consumed) };
}

function camelInput(event: string, input: HookInput): Obj {
  const own = ownOrigin(input as Obj, 'copilot');
  const out: Obj = own !== undefined ? { ...own.input } : { sessionId: input.sessionId, cwd: input.cwd };
  const ms = Date.parse(input.timestamp);
  out.timestamp = Number.isNaN(ms) ? Date.now() : ms;
  if (typeof input.toolName === 'string') {
    const name = nativeToolName('copilot', input.toolName, str(own?.input.toolName));
    out.toolName = name;
    out.toolArgs = JSON.stringify(nativeToolInput('copilot', name, input.toolInput ?? {}));
  }
  if ((event === 'postToolUse' || event === 'postToolUseFailure') && input.toolResult !== undefined)
    out.toolResult = isObject(input.toolResult)
      ? input.toolResult
      : {
          resultType: input.ok === false ? 'failure' : 'success',
          textResultForLlm: String(input.toolResult),
        };
  if (event === 'userPromptSubmitted') out.prompt = input.prompt ?? '';
  if (event === 'errorOccurred' && out.error === undefined) out.error = input.error;
  if (event === 'subagentStop' || event === 'subagentStart') {
    out.agentName = out.agentName ?? input.subagentName ?? input.agentType ?? '';
    if (event === 'subagentStop') out.response = input.subagentResult ?? out.response ?? '';
  }
  return out;
}

/** A compatible (snake_case) input in the camelCase names camelToDispatch reads. */
function fromCompat(raw: Obj): Obj {
  const names: Record<string, string> = {
    session_id: 'sessionId',
    tool_name: 'toolName',
    tool_input: 'toolArgs',
    tool_result: 'toolResult',
    transcript_path: 'transcriptPath',
    agent_name: 'agentName',
    agent_type: 'agentType',
    stop_hook_active: 'stopHookActive',
  };
  const out: Obj = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'hook_event_name') continue;
    out[Object.hasOwn(names, k) ? names[k]! : k] = v;
  }
  const r = out.toolResult;
  if (isObject(r) && r.result_type !== undefined)
    out.toolResult = { resultType: r.result_type, textResultForLlm: r.text_result_for_llm };
  return out;
}

/** Copilot's input → the dispatch input (a compatible event's snake_case input too). */
export function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const named = str(raw.hook_event_name) ?? str(raw.hookEventName) ?? event;
  if (!Object.hasOwn(COMPAT, named)) return camelToDispatch(event, raw);
  const d = camelToDispatch(camelOf(named), fromCompat(raw));
  const origin: AgentOrigin = { agent: 'copilot', name: named, input: raw };
  return { event: d.event, input: { ...d.input, [AGENT_ORIGIN_KEY]: origin } };
}

/** What a hook written for Copilot reads on stdin (a compatible event's hook: snake_case, ISO time). */
export function renderInput(event: string, input: HookInput): Obj {
  if (!Object.hasOwn(COMPAT, event)) return camelInput(event, input);
  const own = ownOrigin(input as Obj, 'copilot');
  if (own?.name === event) return { ...own.input };
  const camel = camelInput(camelOf(event), input);
  const out: Obj = {
    hook_event_name: event,
    session_id: input.sessionId,
    timestamp: input.timestamp,
    cwd: input.cwd,
  };
  if (typeof camel.toolName === 'string') {
    out.tool_name = camel.toolName;
    out.tool_input = JSON.parse(String(camel.toolArgs));
  }
  if (isObject(camel.toolResult))
    out.tool_result = {
      result_type: camel.toolResult.resultType,
      text_result_for_llm: camel.toolResult.textResultForLlm,
    };
  for (const k of ['prompt', 'error', 'source', 'reason', 'trigger'])
    if (camel[k] !== undefined) out[k] = camel[k];
  if (typeof camel.agentName === 'string') out.agent_name = camel.agentName;
  return out;
}
