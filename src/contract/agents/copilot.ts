// GitHub Copilot CLI (@github/copilot 1.0.102: the event and field names of its runtime, its SDK
// types (copilot-sdk/types.d.ts) and GitHub's "Copilot CLI hooks reference" and "Hooks
// configuration" pages). `.github/hooks/*.json` and `~/.copilot/hooks`: `{"version": 1, "hooks":
// {event: [{type: "command", bash, powershell, cwd, env, timeoutSec}]}}` (30 s default). The input is
// camelCase with a millisecond `timestamp` and the tool's arguments as a JSON *string* (`toolArgs`);
// answers are flat camelCase: `permissionDecision`, `permissionDecisionReason`, `modifiedArgs`,
// `additionalContext`, `decision: "block"` + `reason`, `behavior`, `modifiedPrompt`, `modifiedResult`.
// A preToolUse hook that errs denies the call ("Denied by preToolUse hook (hook errored)"); exit 2 is
// only a warning, so the adapter answers every verdict with exit 0 and its JSON.
import { denyReason } from '../answer-notes.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import {
  canonicalToolInput,
  canonicalToolName,
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
  jsonObjectField,
  knownEvent,
  ownOrigin,
  parseMaybeJson,
  READ_ALWAYS,
  str,
  stringField,
  writeAnswer,
} from './common.js';
import type { AgentAnswer, AgentEvent, AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

const gate = (dispatch: string): AgentEvent => ({ dispatch, canBlock: true });
const observe = (dispatch: string, left?: string): AgentEvent => ({
  dispatch,
  canBlock: false,
  ...(left === undefined ? {} : { left }),
});

/** Copilot CLI 1.0.102's hook events (its settings schema's `hooks.*`). */
const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  sessionStart: observe('SessionStart'),
  sessionEnd: observe('SessionEnd'),
  userPromptSubmitted: gate('BeforeTurn'),
  userPromptTransformed: observe(
    'userPromptTransformed',
    'its hooks rewrite the model-facing prompt (modifiedTransformedPrompt), which hookwarden has no event for',
  ),
  preToolUse: gate('BeforeTool'),
  permissionRequest: gate('PermissionRequest'),
  postToolUse: observe('AfterTool'),
  postToolUseFailure: observe('PostToolUseFailure'),
  preMcpToolCall: observe(
    'preMcpToolCall',
    "its hooks answer with an MCP request's metadata (metaToUse), which hookwarden has no field for",
  ),
  errorOccurred: observe('StopFailure'),
  agentStop: observe('Stop'),
  subagentStart: observe('SubagentStart'),
  subagentStop: observe('SubagentStop'),
  preCompact: observe('PreCompact'),
  notification: observe('Notification'),
});

function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? raw.hookEventName ?? event, 'Copilot CLI');
  for (const f of ['sessionId', 'cwd', 'toolName', 'prompt', 'transcriptPath']) stringField(raw, f, event);
  const fields: Obj = { timestamp: isoTime(raw.timestamp) };
  const sent = str(raw.toolName);
  if (sent !== undefined) {
    fields.toolName = canonicalToolName('copilot', sent);
    fields.toolInput = canonicalToolInput('copilot', sent, jsonObjectField(raw, 'toolArgs', event) ?? {});
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

function renderInput(event: string, input: HookInput): Obj {
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

function readAnswer(event: string, raw: Obj, input: HookInput | undefined) {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'permissionDecision':
        mapped.decision = value;
        break;
      case 'permissionDecisionReason':
        mapped.reason = value;
        break;
      case 'behavior':
        mapped.decision = value;
        break;
      case 'message':
        if (event === 'permissionRequest') mapped.reason = value;
        else ignored.push(key);
        break;
      case 'decision':
        // Claude Code's word: a block (keep working on agentStop/subagentStop), mapped downstream.
        mapped.decision = value;
        break;
      case 'modifiedArgs': {
        const args = parseMaybeJson(value);
        if (isObject(args) && input !== undefined) {
          const name = str(renderInput(event, input).toolName) ?? '';
          mapped.mutatedToolInput = canonicalToolInput('copilot', name, args);
        } else mapped.mutatedToolInput = args;
        break;
      }
      case 'modifiedPrompt':
        mapped.mutatedPrompt = value;
        break;
      case 'modifiedResult':
        mapped.updatedToolOutput = value;
        break;
      case 'modifiedResponse':
        mapped.mutatedText = value;
        break;
      case 'additionalContext':
      case 'reason':
      case 'suppressOutput':
        mapped[key] = value;
        break;
      default:
        ignored.push(key);
    }
  }
  return { mapped, ignored };
}

/** Copilot's ToolResultObject for a rewritten result. */
const toolResultObject = (v: unknown) =>
  isObject(v) && typeof v.resultType === 'string'
    ? v
    : { resultType: 'success', textResultForLlm: typeof v === 'string' ? v : JSON.stringify(v) };

function toAnswer(event: string, result: DispatchResult, dispatched: Obj): AgentAnswer {
  const e = Object.hasOwn(EVENTS, event) ? EVENTS[event]! : observe(event);
  const used = new Set(READ_ALWAYS);
  const out: Obj = {};
  const answer = (reason?: string, exitCode: 0 | 1 = 0) =>
    writeAnswer({
      title: 'Copilot CLI',
      event,
      result,
      exitCode,
      out,
      used,
      // Copilot denies a preToolUse hook that exits non-zero: a note must not change the verdict.
      brokenExit: false,
      ...(reason === undefined ? {} : { reason }),
    });
  const deny = (reason: string) => {
    if (event === 'preToolUse') {
      out.permissionDecision = 'deny';
      out.permissionDecisionReason = reason;
    } else if (event === 'permissionRequest') {
      out.behavior = 'deny';
      out.message = reason;
    } else {
      out.decision = 'block';
      out.reason = reason;
    }
    return answer();
  };
  if (
    result.suppressOutput === true &&
    (event === 'preToolUse' || event === 'postToolUse' || event === 'userPromptSubmitted')
  ) {
    out.suppressOutput = true;
    used.add('suppressOutput');
  }
  if (result.decision === 'deny')
    return e.canBlock ? deny(denyReason(result)) : answer(denyReason(result), 1);
  if (result.interrupted === true && e.canBlock) return deny('interrupted before every hook ran');
  if (event === 'preToolUse') {
    if (result.decision === 'allow' || result.decision === 'ask') {
      out.permissionDecision = result.decision;
      if (result.reason !== undefined) out.permissionDecisionReason = result.reason;
    }
    if (result.mutatedToolInput !== undefined) {
      used.add('mutatedToolInput');
      const origin = ownOrigin(dispatched, 'copilot');
      const name = nativeToolName('copilot', str(dispatched.toolName) ?? '', str(origin?.input.toolName));
      const r = expressRewrite('copilot', name, dispatchedToolInput(dispatched), result.mutatedToolInput);
      if (!r.ok) return deny(`${r.why}: denied`);
      out.modifiedArgs = r.native;
    }
  }
  if (event === 'permissionRequest' && result.decision === 'allow') {
    // An approval of a rewritten call cannot be said here: Copilot's own flow decides.
    if (result.mutatedToolInput === undefined) out.behavior = 'allow';
    used.add('mutatedToolInput');
  }
  if (event === 'userPromptSubmitted' && result.mutatedPrompt !== undefined) {
    out.modifiedPrompt = result.mutatedPrompt;
    used.add('mutatedPrompt');
  }
  if (event === 'postToolUse' && result.updatedToolOutput !== undefined) {
    out.modifiedResult = toolResultObject(result.updatedToolOutput);
    used.add('updatedToolOutput');
  }
  if ((event === 'agentStop' || event === 'subagentStop') && result.continueWork !== undefined) {
    out.decision = 'block';
    out.reason = result.continueWork.reason;
    used.add('continueWork');
  }
  if (event === 'subagentStop' && result.mutatedText !== undefined && out.decision === undefined) {
    out.modifiedResponse = result.mutatedText;
    used.add('mutatedText');
  }
  const context = [
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'userPromptSubmitted',
    'sessionStart',
    'subagentStart',
    'notification',
  ];
  if (result.additionalContext !== undefined && context.includes(event)) {
    out.additionalContext = result.additionalContext;
    used.add('additionalContext');
  }
  if (result.interrupted === true) return answer('interrupted before every hook ran', 1);
  return answer();
}

function failure(event: string | undefined, reason: string): AgentAnswer {
  const line = failureLine(reason);
  const deny: Obj | undefined =
    event === 'preToolUse'
      ? { permissionDecision: 'deny', permissionDecisionReason: line }
      : event === 'permissionRequest'
        ? { behavior: 'deny', message: line }
        : event === 'userPromptSubmitted'
          ? { decision: 'block', reason: line }
          : undefined;
  if (deny !== undefined)
    return { exitCode: 0, stdout: `${JSON.stringify(deny)}\n`, stderr: `${line}\n`, dropped: [] };
  // An event not known (no --event, or one Copilot does not have): every gate's deny at once, so
  // whichever event Copilot ran the hook for reads a block (each reads only its own fields).
  if (event === undefined || !Object.hasOwn(EVENTS, event)) {
    const all = {
      permissionDecision: 'deny',
      permissionDecisionReason: line,
      behavior: 'deny',
      message: line,
      decision: 'block',
      reason: line,
    };
    return { exitCode: 0, stdout: `${JSON.stringify(all)}\n`, stderr: `${line}\n`, dropped: [] };
  }
  // The other events cannot block: a non-blocking error.
  return { exitCode: 1, stdout: '', stderr: `${line}\n`, dropped: [] };
}

export const COPILOT: AgentProtocol = Object.freeze({
  name: 'copilot',
  title: 'Copilot CLI',
  version: '@github/copilot 1.0.102',
  events: EVENTS,
  projectDirEnv: undefined,
  eventOf: (raw: Obj) => str(raw.hook_event_name) ?? str(raw.hookEventName),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
