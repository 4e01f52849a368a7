// Cursor's answers (cursor.ts): a Cursor hook's answer in hookwarden's words, and hookwarden's
// verdict in Cursor's (`permission`, `continue`, `followup_message`…, always exit 0 with the JSON).
// Dependency-free.
import { denyReason } from '../answer-notes.js';
import { tighten } from '../decisions.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import { canonicalToolInput } from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchedToolInput,
  expressRewrite,
  failureLine,
  ownOrigin,
  READ_ALWAYS,
  str,
  writeAnswer,
} from './common.js';
import { ASKS, EVENTS, PERMISSION } from './cursor-events.js';
import { cursorTool, renderInput } from './cursor-input.js';
import type { AgentAnswer, AnswerOptions } from './protocol.js';

type Obj = Record<string, unknown>;

export function readAnswer(event: string, raw: Obj, input: HookInput | undefined) {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  const message = str(raw.user_message) ?? str(raw.agent_message);
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'permission':
        tighten(mapped, value);
        if (message !== undefined) mapped.reason = message;
        break;
      case 'user_message':
      case 'agent_message':
        break;
      case 'continue':
        // beforeSubmitPrompt: false keeps the prompt from being sent.
        if (value === false) {
          tighten(mapped, 'deny');
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

/** preToolUse, beforeShellExecution…: a permission, with the rewrite where the event takes one. */
function permissionAnswer(
  event: string,
  result: DispatchResult,
  dispatched: Obj,
  explicitAllow: boolean,
  out: Obj,
  used: Set<string>,
  answer: () => AgentAnswer,
  deny: (reason: string) => AgentAnswer,
): AgentAnswer {
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

export function toAnswer(
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
  if (PERMISSION.has(event))
    return permissionAnswer(event, result, dispatched, explicitAllow, out, used, answer, deny);
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

export function failure(event: string | undefined, reason: string): AgentAnswer {
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
