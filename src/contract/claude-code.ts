// Claude Code's hook output shape, mapped onto HookOutput (DESIGN §2, §9). Dependency-free.
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
  const stopLike = event === 'AfterTurn' || event === 'AfterSubagent';
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    switch (key) {
      case 'decision':
        if (value === 'block') {
          if (stopLike)
            mapped.continueWork = { reason: typeof raw.reason === 'string' ? raw.reason : 'blocked by hook' };
          else if (event === 'AfterTool') {
            if (typeof raw.reason === 'string') mapped.additionalContext = raw.reason;
          } else mapped.decision = 'deny';
        } else if (value === 'approve') mapped.decision = 'allow';
        else mapped.decision = value;
        break;
      case 'reason':
        if (!(raw.decision === 'block' && (stopLike || event === 'AfterTool'))) mapped.reason = value;
        break;
      case 'updatedInput':
        mapped.mutatedToolInput = value;
        break;
      case 'hookSpecificOutput':
        if (isObject(value)) mapSpecific(value, mapped, ignored);
        else ignored.push(key);
        break;
      default:
        mapped[key] = value;
    }
  }
  return { mapped, ignored };
}

function mapSpecific(spec: Obj, mapped: Obj, ignored: string[]): void {
  for (const key of Object.keys(spec)) {
    const value = spec[key];
    switch (key) {
      case 'hookEventName':
        break;
      case 'permissionDecision':
        mapped.decision = value;
        break;
      case 'permissionDecisionReason':
        mapped.reason = value;
        break;
      case 'updatedInput':
        mapped.mutatedToolInput = value;
        break;
      case 'additionalContext':
        mapped.additionalContext = value;
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
