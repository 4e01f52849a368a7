// Gemini CLI's answers (gemini.ts): a Gemini hook's answer in hookwarden's words, and hookwarden's
// verdict in Gemini's (`decision`, `reason`, `hookSpecificOutput`; a deny is exit 2 with the JSON
// too, since Gemini reads stdout whatever the exit code). Dependency-free.
import { denyReason } from '../answer-notes.js';
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
import { EVENTS } from './gemini-events.js';
import { geminiTool, renderInput } from './gemini-input.js';
import type { AgentAnswer } from './protocol.js';

type Obj = Record<string, unknown>;

/** A Gemini hook's answer, in hookwarden's field names. */
export function readAnswer(event: string, raw: Obj, input: HookInput | undefined) {
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
            // Gemini 0.61.0 builds the call from the answer's tool_input alone (scheduler/hook-utils.js,
            // evaluateBeforeToolHook: tool.build(modifiedInput)): it replaces the arguments.
            const name = str(renderInput(event, input).tool_name) ?? '';
            mapped.mutatedToolInput = canonicalToolInput('gemini', name, v);
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

export function toAnswer(event: string, result: DispatchResult, dispatched: Obj): AgentAnswer {
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
      // Gemini replaces the call's arguments with the answer's tool_input.
      const r = expressRewrite('gemini', name, dispatchedToolInput(dispatched), result.mutatedToolInput);
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

export function failure(event: string | undefined, reason: string): AgentAnswer {
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
