// OpenAI Codex CLI (@openai/codex 0.171.0; its hook engine is codex-rs/hooks, the output schemas are
// embedded in the shipped binary). Codex speaks Claude Code's hook protocol with Claude Code's event
// names and snake_case input, and is stricter about answers: every output schema has
// `additionalProperties: false`, so an answer with a field Codex does not know — or one it calls
// unsupported (`permissionDecision: "allow"` without `updatedInput`, `"ask"`, `continue: false` on
// PreToolUse, a block without a reason) — makes the hook *failed*, and the tool runs. The adapter
// therefore writes only what each event's schema takes, and says a deny with exit 2 and the reason
// on stderr (Codex blocks on exit 2 with a non-empty stderr, whatever stdout holds).
import { denyReason } from '../answer-notes.js';
import { withSnakeCaseNames } from '../input-names.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import { canonicalToolName, nativeToolName } from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchedToolInput,
  dispatchInput,
  expressRewrite,
  failureLine,
  knownEvent,
  objectField,
  ownOrigin,
  READ_ALWAYS,
  str,
  stringField,
  writeAnswer,
} from './common.js';
import { AGENT_ORIGIN_KEY, type AgentAnswer, type AgentEvent, type AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

const gate = (dispatch: string): AgentEvent => ({ dispatch, canBlock: true });
const observe = (dispatch: string): AgentEvent => ({ dispatch, canBlock: false });

/** Codex 0.171.0's events (HookEventsToml), and StopFailure of the source tree after it. */
const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  SessionStart: observe('SessionStart'),
  SessionEnd: observe('SessionEnd'),
  UserPromptSubmit: gate('UserPromptSubmit'),
  PreToolUse: gate('PreToolUse'),
  PermissionRequest: gate('PermissionRequest'),
  PostToolUse: observe('PostToolUse'),
  // Codex's PreCompact output schema has no decision: a compaction cannot be stopped.
  PreCompact: observe('PreCompact'),
  PostCompact: observe('PostCompact'),
  SubagentStart: observe('SubagentStart'),
  SubagentStop: observe('SubagentStop'),
  Stop: observe('Stop'),
  StopFailure: observe('StopFailure'),
  // Claude Code's Interrupt (hookwarden's since 2.1.335): Codex reads only a systemMessage there.
  Interrupt: observe('Interrupt'),
});

/** Output fields of every Codex event's schema besides hookSpecificOutput (universal + own). */
const UNIVERSAL = ['continue', 'stopReason', 'suppressOutput', 'systemMessage'];
const TOP: Readonly<Record<string, readonly string[]>> = {
  PreToolUse: [...UNIVERSAL, 'decision', 'reason', 'hookSpecificOutput'],
  PermissionRequest: [...UNIVERSAL, 'hookSpecificOutput'],
  PostToolUse: [...UNIVERSAL, 'decision', 'reason', 'hookSpecificOutput'],
  UserPromptSubmit: [...UNIVERSAL, 'decision', 'reason', 'hookSpecificOutput'],
  SessionStart: [...UNIVERSAL, 'hookSpecificOutput'],
  SubagentStart: [...UNIVERSAL, 'hookSpecificOutput'],
  Stop: [...UNIVERSAL, 'decision', 'reason'],
  SubagentStop: [...UNIVERSAL, 'decision', 'reason'],
  Interrupt: ['systemMessage'],
};
/** hookSpecificOutput fields per event. */
const SPECIFIC: Readonly<Record<string, readonly string[]>> = {
  PreToolUse: [
    'hookEventName',
    'additionalContext',
    'permissionDecision',
    'permissionDecisionReason',
    'updatedInput',
  ],
  PermissionRequest: ['hookEventName', 'decision'],
  PostToolUse: ['hookEventName', 'additionalContext', 'updatedMCPToolOutput'],
  UserPromptSubmit: ['hookEventName', 'additionalContext'],
  SessionStart: ['hookEventName', 'additionalContext'],
  SubagentStart: ['hookEventName', 'additionalContext'],
};
const BLOCK_WITH_REASON = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop']);

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/** Why Codex would call this answer invalid (its output parser's rules), or undefined. */
function codexInvalid(event: string, raw: Obj): string | undefined {
  const top = TOP[event] ?? UNIVERSAL;
  const unknown = Object.keys(raw).find((k) => !top.includes(k));
  if (unknown !== undefined) return `Codex does not take "${unknown}" on ${event} (the hook fails there)`;
  const spec = raw.hookSpecificOutput;
  if (spec !== undefined && spec !== null) {
    if (!isObject(spec)) return 'hookSpecificOutput: expected an object';
    const keys = SPECIFIC[event] ?? [];
    const bad = Object.keys(spec).find((k) => !keys.includes(k));
    if (bad !== undefined) return `Codex does not take hookSpecificOutput.${bad} on ${event}`;
    if (spec.hookEventName !== event) return `hookSpecificOutput.hookEventName: expected "${event}"`;
  }
  const s = isObject(spec) ? spec : {};
  if (event === 'PreToolUse' || event === 'PermissionRequest') {
    if (raw.continue === false) return `${event} hook returned unsupported continue:false`;
    if (raw.stopReason !== undefined) return `${event} hook returned unsupported stopReason`;
    if (raw.suppressOutput === true) return `${event} hook returned unsupported suppressOutput`;
  }
  if (event === 'PostToolUse' && raw.suppressOutput === true)
    return 'PostToolUse hook returned unsupported suppressOutput';
  if (BLOCK_WITH_REASON.has(event) && raw.decision === 'block' && blank(raw.reason))
    return `${event} hook returned decision:block without a non-empty reason`;
  if (event === 'PreToolUse') {
    const hookSpecific =
      s.permissionDecision !== undefined ||
      s.permissionDecisionReason !== undefined ||
      s.updatedInput !== undefined;
    if (!hookSpecific) {
      if (raw.decision === 'approve') return 'PreToolUse hook returned unsupported decision:approve';
      if (raw.decision === undefined && raw.reason !== undefined)
        return 'PreToolUse hook returned reason without decision';
    } else {
      if (s.updatedInput !== undefined && s.permissionDecision !== 'allow')
        return 'PreToolUse hook returned updatedInput without permissionDecision:allow';
      if (s.permissionDecision === 'allow' && s.updatedInput === undefined)
        return 'PreToolUse hook returned unsupported permissionDecision:allow';
      if (s.permissionDecision === 'ask')
        return 'PreToolUse hook returned unsupported permissionDecision:ask';
      if (s.permissionDecision === 'deny' && blank(s.permissionDecisionReason))
        return 'PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason';
      if (s.permissionDecision === undefined && s.permissionDecisionReason !== undefined)
        return 'PreToolUse hook returned permissionDecisionReason without permissionDecision';
    }
  }
  if (event === 'PermissionRequest' && isObject(s.decision)) {
    const d = s.decision;
    if (d.updatedInput !== undefined) return 'PermissionRequest hook returned unsupported updatedInput';
    if (d.updatedPermissions !== undefined)
      return 'PermissionRequest hook returned unsupported updatedPermissions';
    if (d.interrupt === true) return 'PermissionRequest hook returned unsupported interrupt:true';
  }
  if (
    event === 'PostToolUse' &&
    raw.decision !== 'block' &&
    raw.continue !== false &&
    raw.reason !== undefined
  )
    return 'PostToolUse hook returned reason without decision';
  return undefined;
}

function toDispatch(event: string, raw: Obj): { event: string; input: Obj } {
  const e = knownEvent(EVENTS, raw.hook_event_name ?? event, 'Codex');
  for (const f of ['session_id', 'cwd', 'transcript_path', 'tool_name', 'tool_use_id', 'permission_mode'])
    stringField(raw, f, event);
  const toolName = str(raw.tool_name);
  const fields: Obj = {};
  if (toolName !== undefined) fields.tool_name = canonicalToolName('codex', toolName);
  if (raw.tool_input !== undefined) fields.tool_input = objectField(raw, 'tool_input', event) ?? {};
  return { event: e.dispatch, input: dispatchInput('codex', event, raw, fields, []) };
}

function renderInput(event: string, input: HookInput): Obj {
  const { [AGENT_ORIGIN_KEY]: _origin, ...rest } = input as Obj;
  const own = ownOrigin(input as Obj, 'codex');
  const out: Obj = { ...(own?.input ?? {}), ...withSnakeCaseNames(rest), hook_event_name: event };
  if (typeof input.toolName === 'string')
    out.tool_name = nativeToolName('codex', input.toolName, str(own?.input.tool_name));
  if (input.toolInput !== undefined) out.tool_input = input.toolInput;
  return out;
}

/** Fields one answer may carry on `event` (the schema's). */
const takes = (event: string, field: string) => (TOP[event] ?? UNIVERSAL).includes(field);

function toAnswer(event: string, result: DispatchResult, dispatched: Obj): AgentAnswer {
  const e = Object.hasOwn(EVENTS, event) ? EVENTS[event]! : observe(event);
  const used = new Set(READ_ALWAYS);
  const out: Obj = {};
  const specific: Obj = { hookEventName: event };
  const answer = (exitCode: 0 | 1 | 2, o: Obj, reason?: string) =>
    writeAnswer({
      title: 'Codex',
      event,
      result,
      exitCode,
      out: o,
      used,
      brokenField: 'systemMessage',
      ...(reason === undefined ? {} : { reason }),
    });
  if (result.systemMessage !== undefined && takes(event, 'systemMessage')) {
    out.systemMessage = result.systemMessage;
    used.add('systemMessage');
  }
  if (result.suppressOutput === true && takes(event, 'suppressOutput') && event !== 'PostToolUse') {
    out.suppressOutput = true;
    used.add('suppressOutput');
  }
  const stopHere = result.continue === false && takes(event, 'continue') && !e.canBlock;
  if (stopHere) {
    out.continue = false;
    if (result.stopReason !== undefined) out.stopReason = result.stopReason;
    used.add('continue').add('stopReason');
  }
  if (result.decision === 'deny') {
    used.add('continue').add('stopReason');
    if (e.canBlock) return answer(2, {}, denyReason(result));
    // An event Codex cannot stop (a mandatory hook failed there): a non-blocking error.
    return answer(1, out, denyReason(result));
  }
  if (event === 'PreToolUse') {
    if (result.decision === 'ask') {
      const why = `a hook asks for approval${result.reason === undefined ? '' : ` (${result.reason})`}, which Codex's PreToolUse cannot ask for: denied (approve it with a PermissionRequest hook, or in hookwarden's policy)`;
      return answer(2, {}, why);
    }
    if (result.mutatedToolInput !== undefined) {
      used.add('mutatedToolInput');
      const origin = ownOrigin(dispatched, 'codex');
      const native = nativeToolName('codex', str(dispatched.toolName) ?? '', str(origin?.input.tool_name));
      const r = expressRewrite('codex', native, dispatchedToolInput(dispatched), result.mutatedToolInput);
      if (!r.ok) return answer(2, {}, `${r.why}: denied`);
      specific.permissionDecision = 'allow';
      specific.updatedInput = r.native;
    }
  }
  if (event === 'PermissionRequest' && result.decision === 'allow') {
    // Codex refuses updatedInput and updatedPermissions here: an approval of a rewritten call is not
    // given (Codex asks the user instead).
    if (result.mutatedToolInput === undefined) specific.decision = { behavior: 'allow' };
    used.add('mutatedToolInput').add('updatedPermissions');
  }
  if (result.additionalContext !== undefined && (SPECIFIC[event] ?? []).includes('additionalContext')) {
    specific.additionalContext = result.additionalContext;
    used.add('additionalContext');
  }
  if (
    event === 'PostToolUse' &&
    result.updatedToolOutput !== undefined &&
    /^mcp__/.test(str(dispatched.toolName) ?? '')
  ) {
    specific.updatedMCPToolOutput = result.updatedToolOutput;
    used.add('updatedToolOutput');
  }
  if ((event === 'Stop' || event === 'SubagentStop') && result.continueWork !== undefined) {
    out.decision = 'block';
    out.reason = result.continueWork.reason;
    used.add('continueWork');
  }
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  if (result.interrupted === true) return answer(1, out, 'interrupted before every hook ran');
  return answer(0, out);
}

function failure(event: string | undefined, reason: string): AgentAnswer {
  const canBlock = event === undefined || !Object.hasOwn(EVENTS, event) || EVENTS[event]!.canBlock;
  return { exitCode: canBlock ? 2 : 1, stdout: '', stderr: `${failureLine(reason)}\n`, dropped: [] };
}

export const CODEX: AgentProtocol = Object.freeze({
  name: 'codex',
  title: 'Codex',
  version: '@openai/codex 0.171.0',
  events: EVENTS,
  projectDirEnv: undefined,
  eventOf: (raw: Obj) => str(raw.hook_event_name),
  toDispatch,
  renderInput,
  readAnswer: (event: string, raw: Obj) => {
    const invalid = codexInvalid(event, raw);
    return { mapped: raw, ignored: [], ...(invalid === undefined ? {} : { invalid }) };
  },
  toAnswer,
  failure,
});
