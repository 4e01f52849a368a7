// Claude Code's hook output shape, mapped onto HookOutput (docs/claude-code.md). Dependency-free.
//
//   decision: "block"            → deny; on AfterTurn/AfterSubagent (Stop/SubagentStop) it means
//                                  "keep working" → continueWork; on AfterTool it is feedback for the
//                                  model → additionalContext
//   decision: "approve"          → allow (Claude Code's deprecated spelling)
//   continue, stopReason, systemMessage, suppressOutput → the same fields (every event; the fold
//                                  stops the chain on continue: false, and denies where it can)
//   hookSpecificOutput.permissionDecision / permissionDecisionReason → decision / reason (allow, deny,
//                                  ask, defer)
//   hookSpecificOutput.decision {behavior, message, updatedInput, updatedPermissions, interrupt}
//                                → decision / reason / mutatedToolInput / updatedPermissions / interrupt
//   hookSpecificOutput.updatedInput, top-level updatedInput          → mutatedToolInput
//   hookSpecificOutput.additionalContext                             → additionalContext
//   hookSpecificOutput.updatedToolOutput, updatedMCPToolOutput       → updatedToolOutput
//   hookSpecificOutput.updatedPermissions                            → updatedPermissions
//   anything else in hookSpecificOutput (sessionTitle, watchPaths…)  → ignored (listed)

import { tighten } from './decisions.js';
import { EVENT_ALIASES } from './events.js';
import { isObject } from './messages.js';

/** Keys only Claude Code's shape has (continue, stopReason, systemMessage… are hookwarden's too). */
const CC_ONLY_KEYS = ['hookSpecificOutput', 'updatedInput'];

type Obj = Record<string, unknown>;

/** Whether an output object uses Claude Code's shape rather than hookwarden's. */
export function isClaudeCodeOutput(raw: Obj): boolean {
  if (raw.decision === 'block' || raw.decision === 'approve') return true;
  return CC_ONLY_KEYS.some((k) => Object.hasOwn(raw, k));
}

/**
 * Maps a Claude Code output object to hookwarden's field names. Returns the mapped object (still to be
 * schema-validated) and the names of fields that have no meaning here.
 */
export function mapClaudeCodeOutput(raw: Obj, event: string): { mapped: Obj; ignored: string[] } {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  const stopLike = KEEP_WORKING_EVENTS.has(event);
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    switch (key) {
      case 'decision':
        if (value === 'block') {
          if (stopLike) {
            const reason = typeof raw.reason === 'string' ? raw.reason : 'blocked by hook';
            const context = mapped.continueWork as { reason: string } | undefined;
            mapped.continueWork = { reason: context === undefined ? reason : `${reason}\n${context.reason}` };
          } else if (event === 'AfterTool') {
            if (typeof raw.reason === 'string') mapped.additionalContext = raw.reason;
          } else mapped.decision = 'deny';
        } else if (value === 'approve') tighten(mapped, 'allow');
        else tighten(mapped, value);
        break;
      case 'reason':
        if (!(raw.decision === 'block' && (stopLike || event === 'AfterTool'))) mapped.reason = value;
        break;
      case 'updatedInput':
        mapped.mutatedToolInput = value;
        break;
      case 'hookSpecificOutput':
        if (isObject(value)) mapSpecific(value, mapped, ignored, event, raw);
        else ignored.push(key);
        break;
      default:
        mapped[key] = value;
    }
  }
  return { mapped, ignored };
}

/**
 * Events where a block means "keep working" (Claude Code's Stop, SubagentStop and TeammateIdle), and
 * where `hookSpecificOutput.additionalContext` is feedback that keeps the agent working too.
 */
const KEEP_WORKING_EVENTS: ReadonlySet<string> = new Set(['AfterTurn', 'AfterSubagent', 'TeammateIdle']);

/**
 * Warnings for answer fields Claude Code does not read where they were given, by their ignored
 * name: a PermissionRequest approval on PreToolUse's field would be silently lost.
 */
export function ignoredFieldWarnings(event: string, ignored: readonly string[]): string[] {
  if (event !== 'ApprovalRequest') return [];
  const out: string[] = [];
  if (ignored.includes('hookSpecificOutput.permissionDecision'))
    out.push(
      'PermissionRequest reads only hookSpecificOutput.decision {"behavior": "allow"|"deny"}: the hook\'s hookSpecificOutput.permissionDecision (PreToolUse\'s field) was not applied, so the request is not approved',
    );
  if (ignored.includes('hookSpecificOutput.updatedInput'))
    out.push(
      "PermissionRequest takes a rewrite only as hookSpecificOutput.decision.updatedInput: the hook's hookSpecificOutput.updatedInput was not applied",
    );
  return out;
}

/** Elicitation events: `action: "decline"` is a block (Claude Code's reason when the hook gives none). */
const DECLINE_REASON: Readonly<Record<string, string>> = {
  Elicitation: 'Elicitation denied by hook',
  ElicitationResult: 'Elicitation result blocked by hook',
};

/** Whether a hookSpecificOutput's hookEventName is this (canonical) event's, in any of its names. */
function namesEvent(name: unknown, event: string): boolean {
  if (name === undefined) return true;
  if (typeof name !== 'string') return false;
  return name === event || (Object.hasOwn(EVENT_ALIASES, name) && EVENT_ALIASES[name]!.event === event);
}

function mapSpecific(spec: Obj, mapped: Obj, ignored: string[], event: string, raw: Obj): void {
  // PermissionRequest: Claude Code reads only `decision` {behavior…}. A PreToolUse-style approval
  // there would approve what Claude Code puts in front of the user: ignored (a deny still counts,
  // since dropping it would weaken the guard), as is a rewrite outside `decision`.
  const permissionRequest = event === 'ApprovalRequest';
  // Another event's output: Claude Code refuses it (or, beside a block, drops it); Codex reads its
  // decision. It may only tighten: a deny or an ask counts, nothing else does.
  if (!namesEvent(spec.hookEventName, event)) {
    for (const key of Object.keys(spec)) {
      const stop = key === 'permissionDecision' && ['deny', 'ask', 'defer'].includes(String(spec[key]));
      if (stop) tighten(mapped, spec[key]);
      else if (key !== 'hookEventName') ignored.push(`hookSpecificOutput.${key}`);
    }
    return;
  }
  for (const key of Object.keys(spec)) {
    const value = spec[key];
    switch (key) {
      case 'hookEventName':
        break;
      case 'permissionDecision':
        if (permissionRequest && value !== 'deny') ignored.push('hookSpecificOutput.permissionDecision');
        else tighten(mapped, value);
        break;
      case 'permissionDecisionReason':
        if (permissionRequest && spec.permissionDecision !== 'deny')
          ignored.push('hookSpecificOutput.permissionDecisionReason');
        else mapped.reason = value;
        break;
      case 'updatedInput':
        if (permissionRequest) ignored.push('hookSpecificOutput.updatedInput');
        else mapped.mutatedToolInput = value;
        break;
      case 'additionalContext':
        // Stop, SubagentStop: feedback for the model, and the conversation goes on.
        if (KEEP_WORKING_EVENTS.has(event) && typeof value === 'string') {
          const before = mapped.continueWork as { reason: string } | undefined;
          mapped.continueWork = { reason: before === undefined ? value : `${before.reason}\n${value}` };
        } else mapped.additionalContext = value;
        break;
      case 'action':
        if (Object.hasOwn(DECLINE_REASON, event) && value === 'decline') {
          mapped.decision = 'deny';
          mapped.reason =
            typeof raw.reason === 'string' && raw.reason !== '' ? raw.reason : DECLINE_REASON[event];
        } else ignored.push(`hookSpecificOutput.${key}`);
        break;
      case 'updatedToolOutput':
      case 'updatedMCPToolOutput':
        mapped.updatedToolOutput = value;
        break;
      case 'updatedPermissions':
        mapped.updatedPermissions = value;
        break;
      case 'decision':
        // PermissionRequest: {behavior: "allow"|"deny", message, updatedInput, updatedPermissions, interrupt}.
        if (isObject(value)) mapPermissionDecision(value, mapped, ignored);
        else ignored.push('hookSpecificOutput.decision');
        break;
      default:
        ignored.push(`hookSpecificOutput.${key}`);
    }
  }
}

const PERMISSION_FIELDS: Readonly<Record<string, string>> = {
  behavior: 'decision',
  message: 'reason',
  updatedInput: 'mutatedToolInput',
  updatedPermissions: 'updatedPermissions',
  interrupt: 'interrupt',
};

function mapPermissionDecision(decision: Obj, mapped: Obj, ignored: string[]): void {
  for (const key of Object.keys(decision)) {
    if (Object.hasOwn(PERMISSION_FIELDS, key)) mapped[PERMISSION_FIELDS[key]!] = decision[key];
    else ignored.push(`hookSpecificOutput.decision.${key}`);
  }
}
