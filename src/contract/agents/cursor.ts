// Cursor (its hooks reference, cursor.com/docs/reference/hooks, as observed on Cursor 3.9.16, and
// cursor.com/docs/reference/third-party-hooks; Cursor is not on npm). `.cursor/hooks.json` (project),
// `~/.cursor/hooks.json` (user), `/etc/cursor/hooks.json` (enterprise): `{"version": 1, "hooks":
// {event: [{command, type, timeout, matcher, failClosed, loop_limit}]}}`. Inputs carry
// `conversation_id`, `generation_id` and `workspace_roots`; answers are flat snake_case:
// `{permission: "allow"|"deny"|"ask", user_message, agent_message, updated_input, continue,
// additional_context, followup_message, env}`. Exit 2 denies; any other failure lets the action
// through unless the hook says `failClosed: true`. The adapter answers at exit 0 with the JSON
// (Cursor dumps a JSON body written with exit 2 unparsed as the reason).
import { denyReason } from '../answer-notes.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import {
  canonicalToolInput,
  canonicalToolName,
  mcpParts,
  nativeToolInput,
  nativeToolName,
  UNKNOWN_MCP_SERVER,
} from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchedToolInput,
  dispatchInput,
  expressRewrite,
  failureLine,
  jsonObjectField,
  knownEvent,
  ownOrigin,
  parseMaybeJson,
  READ_ALWAYS,
  str,
  stringField,
  writeAnswer,
} from './common.js';
import type { AgentAnswer, AgentEvent, AgentProtocol, AnswerOptions } from './protocol.js';

type Obj = Record<string, unknown>;

/** The gates: events whose answer is a `permission`. */
const PERMISSION = new Set([
  'preToolUse',
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'beforeTabFileRead',
  'subagentStart',
]);
/** Gates where Cursor enforces `ask` (elsewhere it takes allow/deny only). */
const ASKS = new Set(['beforeShellExecution', 'beforeMCPExecution']);

const gate = (dispatch: string, tool?: string, left?: string): AgentEvent => ({
  dispatch,
  canBlock: true,
  ...(tool === undefined ? {} : { tool }),
  ...(left === undefined ? {} : { left }),
});
const observe = (dispatch: string, tool?: string): AgentEvent => ({
  dispatch,
  canBlock: false,
  ...(tool === undefined ? {} : { tool }),
});

const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  sessionStart: observe('SessionStart'),
  sessionEnd: observe('SessionEnd'),
  preToolUse: gate('BeforeTool'),
  postToolUse: observe('PostToolUse'),
  postToolUseFailure: observe('PostToolUseFailure'),
  beforeShellExecution: gate('BeforeTool', 'Bash'),
  afterShellExecution: observe('PostToolUse', 'Bash'),
  beforeMCPExecution: gate('BeforeTool', 'mcp'),
  afterMCPExecution: observe('PostToolUse', 'mcp'),
  beforeReadFile: gate('BeforeTool', 'Read'),
  beforeTabFileRead: gate('BeforeTool', 'Read'),
  afterFileEdit: observe('PostToolUse', 'Write'),
  afterTabFileEdit: observe('PostToolUse', 'Write'),
  beforeSubmitPrompt: gate('BeforeTurn'),
  preCompact: observe('PreCompact'),
  stop: observe('Stop'),
  // Cursor lets a subagentStart hook deny; hookwarden's BeforeSubagent (Claude Code's SubagentStart)
  // takes no deny, so its hooks stay with Cursor.
  subagentStart: gate(
    'SubagentStart',
    undefined,
    "its hooks may deny a subagent's start, which hookwarden's SubagentStart (BeforeSubagent) does not take",
  ),
  subagentStop: observe('SubagentStop'),
  afterAgentResponse: observe('AfterModel'),
  afterAgentThought: observe('AfterModel'),
  workspaceOpen: {
    dispatch: 'workspaceOpen',
    canBlock: false,
    left: 'hookwarden has no workspaceOpen event (its hooks answer with plugin paths)',
  },
});

/** The vocabulary's name of a Cursor MCP tool (Cursor does not say which server it is on). */
const mcpName = (tool: string) => `mcp__${UNKNOWN_MCP_SERVER}__${tool.replace(/^MCP:/, '')}`;

/** The tool a Cursor call is about: the event's own, else its `tool_name`. */
function toolOf(e: AgentEvent, raw: Obj): string | undefined {
  const sent = str(raw.tool_name);
  if (e.tool === 'mcp') return sent === undefined ? undefined : mcpName(sent);
  if (e.tool !== undefined) return e.tool;
  if (sent === undefined) return undefined;
  return sent.startsWith('MCP:') ? mcpName(sent) : canonicalToolName('cursor', sent);
}

/** Cursor's name for the vocabulary's tool (the one it sent, when the call came from Cursor). */
function cursorTool(toolName: string, sent: string | undefined): string {
  const mcp = mcpParts(toolName);
  if (mcp !== undefined) return sent ?? `MCP:${mcp.tool}`;
  return nativeToolName('cursor', toolName, sent);
}

function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
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
  const toolName = toolOf(e, raw);
  const consumed = ['tool_name', 'tool_input', 'tool_output', 'result_json', 'error_message', 'session_id'];
  if (toolName !== undefined) {
    fields.toolName = toolName;
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

function renderInput(event: string, input: HookInput): Obj {
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

function readAnswer(event: string, raw: Obj, input: HookInput | undefined) {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  const message = str(raw.user_message) ?? str(raw.agent_message);
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'permission':
        mapped.decision = value;
        if (message !== undefined) mapped.reason = message;
        break;
      case 'user_message':
      case 'agent_message':
        break;
      case 'continue':
        // beforeSubmitPrompt: false keeps the prompt from being sent.
        if (value === false) {
          mapped.decision = 'deny';
          mapped.reason = message ?? 'blocked by hook';
        } else if (value !== true) mapped.continue = value;
        break;
      case 'updated_input':
        if (isObject(value) && input !== undefined) {
          const name = str(renderInput(event, input).tool_name) ?? '';
          mapped.mutatedToolInput = canonicalToolInput('cursor', name, value);
        } else mapped.mutatedToolInput = value;
        break;
      case 'additional_context':
        mapped.additionalContext = value;
        break;
      case 'followup_message':
        if (typeof value === 'string') mapped.continueWork = { reason: value };
        else ignored.push(key);
        break;
      case 'env':
        mapped.sessionEnv = value;
        break;
      case 'updated_mcp_tool_output':
        mapped.updatedToolOutput = value;
        break;
      default:
        ignored.push(key);
    }
  }
  return { mapped, ignored };
}

function toAnswer(
  event: string,
  result: DispatchResult,
  dispatched: Obj,
  options: AnswerOptions = {},
): AgentAnswer {
  const explicitAllow = options.explicitAllow === true;
  const used = new Set(READ_ALWAYS);
  const out: Obj = {};
  const answer = (reason?: string, exitCode: 0 | 1 = 0, sessionEnv?: Record<string, string>) =>
    writeAnswer({
      title: 'Cursor',
      event,
      result,
      exitCode,
      out,
      used,
      // Cursor calls a hook that exits non-zero failed (and blocks, with failClosed): a note never does.
      brokenExit: false,
      ...(reason === undefined ? {} : { reason }),
      ...(sessionEnv === undefined ? {} : { sessionEnv }),
    });
  const deny = (reason: string) => {
    out.permission = 'deny';
    out.user_message = reason;
    out.agent_message = reason;
    return answer();
  };
  if (PERMISSION.has(event)) {
    if (result.decision === 'deny') return deny(denyReason(result));
    if (result.decision === 'ask') {
      const why = result.reason ?? 'a hook asks for approval';
      if (!ASKS.has(event)) return deny(`${why} (Cursor's ${event} cannot ask: denied)`);
      out.permission = 'ask';
      out.user_message = why;
      out.agent_message = why;
    }
    if (result.mutatedToolInput !== undefined) {
      used.add('mutatedToolInput');
      if (event !== 'preToolUse')
        return deny(`a hook rewrote the call, which Cursor's ${event} cannot take: denied`);
      const origin = ownOrigin(dispatched, 'cursor');
      const name = cursorTool(str(dispatched.toolName) ?? '', str(origin?.input.tool_name));
      const r = expressRewrite('cursor', name, dispatchedToolInput(dispatched), result.mutatedToolInput);
      if (!r.ok) return deny(`${r.why}: denied`);
      out.updated_input = r.native;
      out.permission ??= 'allow';
    }
    if (result.decision === 'allow' || (explicitAllow && out.permission === undefined))
      out.permission ??= 'allow';
    if (result.interrupted === true) return deny('interrupted before every hook ran');
    return answer();
  }
  if (event === 'beforeSubmitPrompt') {
    if (result.decision === 'deny' || result.continue === false) {
      out.continue = false;
      out.user_message =
        result.decision === 'deny' ? denyReason(result) : (result.stopReason ?? 'stopped by a hook');
      used.add('continue').add('stopReason');
      return answer();
    }
    if (result.interrupted === true) {
      out.continue = false;
      out.user_message = 'interrupted before every hook ran';
      return answer();
    }
    return answer();
  }
  if (result.decision === 'deny') return answer(denyReason(result), 1);
  if ((event === 'stop' || event === 'subagentStop') && result.continueWork !== undefined) {
    out.followup_message = result.continueWork.reason;
    used.add('continueWork');
  }
  if ((event === 'postToolUse' || event === 'sessionStart') && result.additionalContext !== undefined) {
    out.additional_context = result.additionalContext;
    used.add('additionalContext');
  }
  if ((event === 'postToolUse' || event === 'afterMCPExecution') && result.updatedToolOutput !== undefined) {
    if (/^mcp__/.test(str(dispatched.toolName) ?? '')) {
      out.updated_mcp_tool_output = result.updatedToolOutput;
      used.add('updatedToolOutput');
    }
  }
  if (event === 'preCompact' && result.systemMessage !== undefined) {
    out.user_message = result.systemMessage;
    used.add('systemMessage');
  }
  let env: Record<string, string> | undefined;
  if (event === 'sessionStart' && result.sessionEnv !== undefined) {
    out.env = result.sessionEnv;
    env = result.sessionEnv;
    // The same variables as the session-env rule kept them (Cursor takes values, not bash lines).
    used.add('sessionEnv').add('sessionEnvScript');
  }
  if (result.interrupted === true) return answer('interrupted before every hook ran', 1, env);
  return answer(undefined, 0, env);
}

function failure(event: string | undefined, reason: string): AgentAnswer {
  const line = failureLine(reason);
  const known = event !== undefined && Object.hasOwn(EVENTS, event);
  if (!known || PERMISSION.has(event!)) {
    const out = { permission: 'deny', user_message: line, agent_message: line };
    return { exitCode: 0, stdout: `${JSON.stringify(out)}\n`, stderr: `${line}\n`, dropped: [] };
  }
  if (event === 'beforeSubmitPrompt') {
    const out = { continue: false, user_message: line };
    return { exitCode: 0, stdout: `${JSON.stringify(out)}\n`, stderr: `${line}\n`, dropped: [] };
  }
  return { exitCode: 1, stdout: '', stderr: `${line}\n`, dropped: [] };
}

export const CURSOR: AgentProtocol = Object.freeze({
  name: 'cursor',
  title: 'Cursor',
  version: 'Cursor 3.9.16 (cursor.com/docs/reference/hooks)',
  events: EVENTS,
  projectDirEnv: 'CURSOR_PROJECT_DIR',
  eventOf: (raw: Obj) => str(raw.hook_event_name),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
