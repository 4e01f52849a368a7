// Google Gemini CLI (@google/gemini-cli 0.61.0: its bundle's hookRunner, hookAggregator, hookPlanner
// and hookEventHandler, and the docs it ships, docs/hooks/reference.md). Hooks live in settings.json
// (`hooks`, user, project and system); the input is snake_case with an ISO `timestamp`; an answer is
// `{decision: "allow"|"deny"|"block"|"ask", reason, continue, stopReason, systemMessage,
// hookSpecificOutput: {tool_input, additionalContext, llm_request, llm_response, …}}`. Gemini parses
// stdout (or, when stdout is empty, stderr) as JSON whatever the exit code, so the adapter writes its
// deny as JSON too, with exit 2 and the reason on stderr.
import { denyReason } from '../answer-notes.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import {
  canonicalToolInput,
  canonicalToolName,
  mcpParts,
  nativeMcpName,
  nativeToolInput,
  nativeToolName,
} from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchedToolInput,
  dispatchInput,
  expressRewrite,
  failureLine,
  isoTime,
  knownEvent,
  objectField,
  ownOrigin,
  READ_ALWAYS,
  str,
  stringField,
  writeAnswer,
} from './common.js';
import type { AgentAnswer, AgentEvent, AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

const MODEL_LEFT =
  'its hooks answer with model requests and responses (llm_request, llm_response), which hookwarden does not fold back into Gemini';

/** Gemini CLI 0.61.0's HookEventName. */
const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  BeforeTool: { dispatch: 'BeforeTool', canBlock: true },
  // A deny hides the tool's result from the model (its reason replaces it).
  AfterTool: { dispatch: 'AfterTool', canBlock: true },
  BeforeAgent: { dispatch: 'BeforeTurn', canBlock: true },
  // A deny there makes Gemini retry the turn: never said for a failure.
  AfterAgent: { dispatch: 'AfterTurn', canBlock: false },
  BeforeModel: { dispatch: 'BeforeModel', canBlock: true, left: MODEL_LEFT },
  AfterModel: { dispatch: 'AfterModel', canBlock: true, left: MODEL_LEFT },
  BeforeToolSelection: {
    dispatch: 'BeforeToolSelection',
    canBlock: false,
    left: 'its hooks answer with a tool configuration (toolConfig), which hookwarden has no field for',
  },
  SessionStart: { dispatch: 'SessionStart', canBlock: false },
  SessionEnd: { dispatch: 'SessionEnd', canBlock: false },
  Notification: { dispatch: 'Notification', canBlock: false },
  PreCompress: { dispatch: 'PreCompact', canBlock: false },
});

/** The vocabulary's name of a Gemini tool call (MCP tools by their mcp_context). */
function toolOf(raw: Obj): string | undefined {
  const name = str(raw.tool_name);
  if (name === undefined) return undefined;
  const mcp = isObject(raw.mcp_context) ? raw.mcp_context : undefined;
  const server = str(mcp?.server_name);
  const tool = str(mcp?.tool_name);
  if (server !== undefined && tool !== undefined) return `mcp__${server}__${tool}`;
  return canonicalToolName('gemini', name);
}

/** Gemini's name for the vocabulary's tool (the one it sent, when the call came from Gemini). */
function geminiTool(toolName: string, sent: string | undefined): string {
  if (mcpParts(toolName) !== undefined) return sent ?? nativeMcpName('gemini', toolName)!;
  return nativeToolName('gemini', toolName, sent);
}

function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? event, 'Gemini CLI');
  for (const f of ['session_id', 'cwd', 'transcript_path', 'tool_name', 'prompt', 'prompt_response'])
    stringField(raw, f, event);
  const fields: Obj = {};
  const time = isoTime(raw.timestamp);
  if (time !== undefined) fields.timestamp = time;
  const name = str(raw.tool_name);
  if (name !== undefined) {
    const toolName = toolOf(raw)!;
    fields.toolName = toolName;
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

function renderInput(event: string, input: HookInput): Obj {
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

/** A Gemini hook's answer, in hookwarden's field names. */
function readAnswer(event: string, raw: Obj, input: HookInput | undefined) {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'decision': {
        const block = value === 'deny' || value === 'block';
        const reason = str(raw.reason) ?? 'blocked by hook';
        if (block && event === 'AfterTool') mapped.updatedToolOutput = reason;
        else if (block && event === 'AfterAgent') mapped.continueWork = { reason };
        else mapped.decision = block ? 'deny' : value;
        break;
      }
      case 'reason':
        if (
          !(
            (raw.decision === 'deny' || raw.decision === 'block') &&
            (event === 'AfterTool' || event === 'AfterAgent')
          )
        )
          mapped.reason = value;
        break;
      case 'hookSpecificOutput':
        if (!isObject(value)) {
          ignored.push(key);
          break;
        }
        for (const [k, v] of Object.entries(value)) {
          if (k === 'hookEventName') continue;
          if (k === 'additionalContext') mapped.additionalContext = v;
          else if (k === 'tool_input' && event === 'BeforeTool' && isObject(v) && input !== undefined) {
            // Gemini merges the answer over the call's arguments.
            const name = str(renderInput(event, input).tool_name) ?? '';
            const before = nativeToolInput('gemini', name, input.toolInput ?? {});
            mapped.mutatedToolInput = canonicalToolInput('gemini', name, { ...before, ...v });
          } else if (k === 'llm_request' && event === 'BeforeModel' && isObject(v))
            mapped.mutatedRequest = { ...(isObject(input?.request) ? input.request : {}), ...v };
          else ignored.push(`hookSpecificOutput.${k}`);
        }
        break;
      default:
        mapped[key] = value;
    }
  }
  return { mapped, ignored };
}

/** Text for Gemini's result slot. */
const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function toAnswer(event: string, result: DispatchResult, dispatched: Obj): AgentAnswer {
  const e = Object.hasOwn(EVENTS, event) ? EVENTS[event]! : { dispatch: event, canBlock: false };
  const used = new Set(READ_ALWAYS);
  const out: Obj = {};
  const specific: Obj = {};
  const answer = (exitCode: 0 | 1 | 2, reason?: string) => {
    if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: event, ...specific };
    return writeAnswer({
      title: 'Gemini CLI',
      event,
      result,
      exitCode,
      out,
      used,
      brokenField: 'systemMessage',
      ...(reason === undefined ? {} : { reason }),
    });
  };
  for (const f of ['systemMessage', 'suppressOutput'] as const)
    if (result[f] !== undefined) {
      out[f] = result[f];
      used.add(f);
    }
  if (result.continue === false) {
    out.continue = false;
    if (result.stopReason !== undefined) out.stopReason = result.stopReason;
    used.add('continue').add('stopReason');
  }
  if (result.decision === 'deny') {
    const reason = denyReason(result);
    if (!e.canBlock) return answer(1, reason);
    out.decision = 'deny';
    out.reason = reason;
    return answer(2, reason);
  }
  if (event === 'BeforeTool') {
    if (result.decision === 'ask' || result.decision === 'allow') {
      out.decision = result.decision;
      if (result.reason !== undefined) out.reason = result.reason;
    }
    if (result.mutatedToolInput !== undefined) {
      used.add('mutatedToolInput');
      const origin = ownOrigin(dispatched, 'gemini');
      const name = geminiTool(str(dispatched.toolName) ?? '', str(origin?.input.tool_name));
      const r = expressRewrite(
        'gemini',
        name,
        dispatchedToolInput(dispatched),
        result.mutatedToolInput,
        (o, a) => ({
          ...nativeToolInput('gemini', name, o),
          ...a,
        }),
      );
      if (!r.ok) {
        out.decision = 'deny';
        out.reason = `${r.why}: denied`;
        delete out.hookSpecificOutput;
        return answer(2, out.reason as string);
      }
      specific.tool_input = r.native;
    }
  }
  if (event === 'AfterTool' && result.updatedToolOutput !== undefined) {
    // Gemini's way of replacing a tool's result: a deny whose reason is the new result.
    out.decision = 'deny';
    out.reason = asText(result.updatedToolOutput);
    used.add('updatedToolOutput');
  }
  if (event === 'AfterAgent' && result.continueWork !== undefined) {
    out.decision = 'deny';
    out.reason = result.continueWork.reason;
    used.add('continueWork');
  }
  if (event === 'BeforeModel' && result.mutatedRequest !== undefined) {
    specific.llm_request = result.mutatedRequest;
    used.add('mutatedRequest');
  }
  if (
    result.additionalContext !== undefined &&
    (event === 'AfterTool' || event === 'BeforeAgent' || event === 'SessionStart')
  ) {
    specific.additionalContext = result.additionalContext;
    used.add('additionalContext');
  }
  if (result.interrupted === true) return answer(1, 'interrupted before every hook ran');
  return answer(0);
}

function failure(event: string | undefined, reason: string): AgentAnswer {
  const canBlock = event === undefined || !Object.hasOwn(EVENTS, event) || EVENTS[event]!.canBlock;
  const line = failureLine(reason);
  if (!canBlock) return { exitCode: 1, stdout: '', stderr: `${line}\n`, dropped: [] };
  return {
    exitCode: 2,
    stdout: `${JSON.stringify({ decision: 'deny', reason: line })}\n`,
    stderr: `${line}\n`,
    dropped: [],
  };
}

export const GEMINI: AgentProtocol = Object.freeze({
  name: 'gemini',
  title: 'Gemini CLI',
  version: '@google/gemini-cli 0.61.0',
  events: EVENTS,
  projectDirEnv: 'GEMINI_PROJECT_DIR',
  eventOf: (raw: Obj) => str(raw.hook_event_name),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
