// Copilot CLI's answers (copilot.ts): a Copilot hook's answer in hookwarden's words, and hookwarden's
// verdict in Copilot's (`permissionDecision`, `behavior`, `decision: "block"`…, always exit 0 with
// the JSON: exit 2 is only a warning there). Dependency-free.
import { denyReason } from '../answer-notes.js';
import { tighten } from '../decisions.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import { canonicalToolInput, nativeToolName } from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';
import {
  dispatchedToolInput,
  expressRewrite,
  failureLine,
  ownOrigin,
  parseMaybeJson,
  READ_ALWAYS,
  str,
  writeAnswer,
} from './common.js';
import { COMPAT, camelOf, EVENTS, observe } from './copilot-events.js';
import { renderInput } from './copilot-input.js';
import type { AgentAnswer } from './protocol.js';

type Obj = Record<string, unknown>;

export function readAnswer(compatEvent: string, raw: Obj, input: HookInput | undefined) {
  const event = camelOf(compatEvent);
  // A compatible event's hook may answer in VS Code's (Claude Code's) shape too: read both.
  const compat = Object.hasOwn(COMPAT, compatEvent);
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'permissionDecision':
        tighten(mapped, value);
        break;
      case 'permissionDecisionReason':
        mapped.reason = value;
        break;
      case 'behavior':
        tighten(mapped, value);
        break;
      case 'message':
        if (event === 'permissionRequest') mapped.reason = value;
        else ignored.push(key);
        break;
      case 'decision':
        // Claude Code's word: a block (keep working on agentStop/subagentStop), mapped downstream;
        // it never loosens a permissionDecision of the same answer.
        tighten(mapped, value);
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
        if (compat) mapped[key] = value;
        else ignored.push(key);
    }
  }
  const invalid = copilotRefuses(raw);
  return { mapped, ignored, ...(invalid === undefined ? {} : { invalid }) };
}

/** Values Copilot CLI's typed answer cannot hold (the hook then errs: a preToolUse hook is denied). */
const VOCABULARY: Readonly<Record<string, readonly unknown[]>> = {
  permissionDecision: ['allow', 'deny', 'ask'],
  decision: ['block', 'allow'],
  behavior: ['allow', 'deny'],
};
const TYPES: Readonly<Record<string, string>> = {
  permissionDecisionReason: 'string',
  reason: 'string',
  message: 'string',
  additionalContext: 'string',
  suppressOutput: 'boolean',
};

/** Why Copilot would refuse this answer (a value or a type its answer does not take), if it would. */
function copilotRefuses(raw: Obj): string | undefined {
  for (const [k, values] of Object.entries(VOCABULARY))
    if (raw[k] !== undefined && !values.includes(raw[k]))
      return `${k}: Copilot CLI takes ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(raw[k])}`;
  for (const [k, type] of Object.entries(TYPES))
    if (raw[k] !== undefined && typeof raw[k] !== type) return `${k}: Copilot CLI takes a ${type}`;
  return undefined;
}

/** Copilot's ToolResultObject for a rewritten result. */
const toolResultObject = (v: unknown) =>
  isObject(v) && typeof v.resultType === 'string'
    ? v
    : { resultType: 'success', textResultForLlm: typeof v === 'string' ? v : JSON.stringify(v) };

/** The rewrites, the keep-working and the context the event takes, into `out`. */
function applyFields(event: string, result: DispatchResult, out: Obj, used: Set<string>): void {
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
}

export function toAnswer(compatEvent: string, result: DispatchResult, dispatched: Obj): AgentAnswer {
  // A compatible (PascalCase) event is answered as its camelCase event.
  const event = camelOf(compatEvent);
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
  applyFields(event, result, out, used);
  if (result.interrupted === true) return answer('interrupted before every hook ran', 1);
  return answer();
}

export function failure(compatEvent: string | undefined, reason: string): AgentAnswer {
  const event = compatEvent === undefined ? undefined : camelOf(compatEvent);
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
