// A DispatchResult as Claude Code reads a hook's answer (its hooks reference, "Exit code output",
// "JSON output", "Decision control"): an exit code, a JSON object on stdout, a text on stderr. What
// `hookwarden claude-code` writes. Pure and dependency-free.
//
// A block (a deny where Claude Code's event can block) exits 2 with the reason on stderr, and the
// JSON on stdout says the same: exit 2 blocks whatever else Claude Code makes of the JSON (a field it
// does not know, an older version that ignores JSON on exit 2), and a version that reads it gets the
// other fields too (systemMessage, additionalContext). PermissionRequest is the exception: exit 2 is
// not honoured there, so its deny is the JSON `decision.behavior`, exit 0.

import { brokenHooks, denyReason, hookWarnings, otherHookErrors } from './answer-notes.js';
import { CLAUDE_CODE_EVENTS, type ClaudeCodeProtocol } from './claude-code-events.js';
import type { DispatchResult } from './result.js';
import { shellQuote } from './shell-quote.js';

/** What `hookwarden claude-code` answers: exit code, stdout, stderr. */
export interface ClaudeCodeAnswer {
  /** 0 success (JSON on stdout, if any), 2 block (reason on stderr), 1 non-blocking error. */
  readonly exitCode: 0 | 1 | 2;
  /** A JSON object and a newline, or empty. */
  readonly stdout: string;
  /** Exit 2: the reason Claude Code shows (nothing else). Otherwise notes for Claude Code's debug log. */
  readonly stderr: string;
  /**
   * Bash lines for Claude Code's CLAUDE_ENV_FILE (SessionStart, Setup, CwdChanged, FileChanged):
   * the statements the session-env rule kept, as they were written, newline-separated.
   */
  readonly sessionEnvScript?: string;
  /** Result fields Claude Code has no place for at this event (they are dropped; stderr names them). */
  readonly dropped: readonly string[];
}

type Obj = Record<string, unknown>;

/** The result fields every answer may carry at the top level. */
function universal(result: DispatchResult, out: Obj): void {
  if (result.continue === false) {
    out.continue = false;
    if (result.stopReason !== undefined) out.stopReason = result.stopReason;
  }
  if (result.systemMessage !== undefined) out.systemMessage = result.systemMessage;
  if (result.suppressOutput !== undefined) out.suppressOutput = result.suppressOutput;
}

/** Adds lines to the answer's systemMessage (after the hooks' own). */
function addSystemMessage(out: Obj, lines: readonly string[]): void {
  out.systemMessage = [...(typeof out.systemMessage === 'string' ? [out.systemMessage] : []), ...lines].join(
    '\n',
  );
}

/** The fields a result may carry that this mapping reads (the rest are dropped by name). */
const READ = new Set(['event', 'decision', 'reason', 'decidedBy', 'interrupted', 'hooks']);

/** The verdict in the event's shape: exit code, stderr, and the decision fields of `out`/`specific`. */
function applyDecision(
  p: ClaudeCodeProtocol,
  result: DispatchResult,
  out: Obj,
  specific: Obj,
  used: Set<string>,
): { exitCode: 0 | 1 | 2; stderr: string } {
  const deny = result.decision === 'deny';
  let exitCode: 0 | 1 | 2 = 0;
  let stderr = '';
  if (deny && p.deny === undefined) {
    // A deny where Claude Code cannot block (a mandatory hook failed on an observer event): a
    // non-blocking error, shown to the user where Claude Code shows those.
    exitCode = 1;
    stderr = denyReason(result);
  } else if (deny && p.deny === 'behavior') {
    const decision: Obj = { behavior: 'deny', message: denyReason(result) };
    if (result.interrupt !== undefined) decision.interrupt = result.interrupt;
    specific.decision = decision;
    used.add('interrupt');
  } else if (deny) {
    exitCode = 2;
    stderr = denyReason(result);
    if (p.deny === 'permissionDecision') {
      specific.permissionDecision = 'deny';
      specific.permissionDecisionReason = stderr;
    } else if (p.deny === 'decision') {
      out.decision = 'block';
      out.reason = stderr;
    }
  } else if (p.deny === 'behavior' && result.decision === 'allow') {
    const decision: Obj = { behavior: 'allow' };
    if (result.mutatedToolInput !== undefined) decision.updatedInput = result.mutatedToolInput;
    if (result.updatedPermissions !== undefined) decision.updatedPermissions = result.updatedPermissions;
    specific.decision = decision;
    used.add('mutatedToolInput').add('updatedPermissions');
  } else if (p.decisions?.includes(result.decision as 'allow') === true) {
    specific.permissionDecision = result.decision;
    if (result.reason !== undefined) specific.permissionDecisionReason = result.reason;
  }
  return { exitCode, stderr };
}

/** The rewrites and context the event takes, into `specific`. */
function applyFields(
  p: ClaudeCodeProtocol,
  result: DispatchResult,
  specific: Obj,
  used: Set<string>,
  deny: boolean,
): void {
  // Rewrites apply with allow or ask (Claude Code ignores them with defer and after a deny).
  if (p.updatedInput === true && result.mutatedToolInput !== undefined && !deny) {
    specific.updatedInput = result.mutatedToolInput;
    used.add('mutatedToolInput');
  }
  if (p.toolOutput === true && result.updatedToolOutput !== undefined) {
    specific.updatedToolOutput = result.updatedToolOutput;
    used.add('updatedToolOutput');
  }
  if (p.context === true && result.additionalContext !== undefined) {
    specific.additionalContext = result.additionalContext;
    used.add('additionalContext');
  }
}

/** The CLAUDE_ENV_FILE lines of the result, where the event writes them. */
function sessionEnvScriptOf(
  p: ClaudeCodeProtocol,
  result: DispatchResult,
  used: Set<string>,
): string | undefined {
  if (p.envFile === true && (result.sessionEnvScript !== undefined || result.sessionEnv !== undefined)) {
    // The script holds every kept statement (the literal ones too); a result with only the map
    // (a platform's own fold) is written as export lines.
    const script =
      result.sessionEnvScript ??
      Object.entries(result.sessionEnv ?? {})
        .map(([name, value]) => `export ${name}=${shellQuote(value)}`)
        .join('\n');
    used.add('sessionEnvScript').add('sessionEnv');
    return script;
  }
  return undefined;
}

/**
 * The answer to Claude Code for `result`, a dispatch of the Claude Code event `event` (a key of
 * CLAUDE_CODE_EVENTS; any other name gets the answer of an event that takes nothing).
 */
export function toClaudeCodeAnswer(event: string, result: DispatchResult): ClaudeCodeAnswer {
  const p: ClaudeCodeProtocol = Object.hasOwn(CLAUDE_CODE_EVENTS, event) ? CLAUDE_CODE_EVENTS[event]! : {};
  if (p.ignored === true) return ignoredAnswer(result);
  const out: Obj = {};
  const specific: Obj = { hookEventName: event };
  const used = new Set(READ);
  universal(result, out);
  for (const f of ['continue', 'stopReason', 'systemMessage', 'suppressOutput']) used.add(f);

  const deny = result.decision === 'deny';
  let { exitCode, stderr } = applyDecision(p, result, out, specific, used);

  applyFields(p, result, specific, used, deny);
  let plain: string | undefined;
  if (p.plainContext === true && result.additionalContext !== undefined && exitCode === 0) {
    plain = result.additionalContext;
    used.add('additionalContext');
  }
  if (p.keepWorking !== undefined && result.continueWork !== undefined && exitCode === 0) {
    if (p.keepWorking === 'decision') {
      out.decision = 'block';
      out.reason = result.continueWork.reason;
    } else {
      exitCode = 2;
      stderr = result.continueWork.reason;
    }
    used.add('continueWork');
  }
  const sessionEnvScript = sessionEnvScriptOf(p, result, used);

  if (result.interrupted === true && !deny) {
    // Interrupted on an event that cannot block: the hooks did not all run.
    exitCode = 1;
    stderr = 'interrupted before every hook ran';
  }

  // What a hook answered that was not applied (a refused session variable or CLAUDE_ENV_FILE line,
  // an approval on the wrong field): the user sees it, as Claude Code shows a systemMessage.
  const warned = hookWarnings(result);
  if (warned.length > 0) addSystemMessage(out, warned);
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  if (plain !== undefined && Object.keys(out).length > 0) {
    // Claude Code reads plain-text instructions only from a stdout that is not JSON.
    plain = undefined;
    used.delete('additionalContext');
  }
  // A broken guard is shown to the user, as Claude Code shows a hook's non-blocking error: exit 1
  // with its message on stderr, or (when the answer needs its JSON) in the systemMessage.
  const broken = exitCode === 0 ? brokenHooks(result) : [];
  if (broken.length > 0 && (Object.keys(out).length > 0 || plain !== undefined))
    addSystemMessage(out, broken);
  else if (broken.length > 0) {
    exitCode = 1;
    stderr = broken.join('\n');
  }
  const dropped = Object.keys(result).filter((k) => !used.has(k));
  // Exit 2: stderr is the reason Claude Code shows, and nothing else. Otherwise it goes to Claude
  // Code's debug log (or, first line, into a non-blocking error's notice): say what did not arrive.
  if (exitCode !== 2) {
    const notes = [
      ...otherHookErrors(result),
      ...dropped.map((f) => `hookwarden: Claude Code takes no ${f} on ${event}: dropped`),
    ];
    if (notes.length > 0) stderr = [...(stderr === '' ? [] : [stderr]), ...notes].join('\n');
  }
  return {
    exitCode,
    stdout:
      Object.keys(out).length === 0 ? (plain === undefined ? '' : `${plain}\n`) : `${JSON.stringify(out)}\n`,
    stderr: stderr === '' ? '' : `${stderr}\n`,
    ...(sessionEnvScript === undefined ? {} : { sessionEnvScript }),
    dropped,
  };
}

/**
 * An event whose output Claude Code ignores (Interrupt): exit 0 and nothing on stdout; its debug log
 * gets the lines of hooks that failed and the result fields that were dropped.
 */
function ignoredAnswer(result: DispatchResult): ClaudeCodeAnswer {
  const dropped = Object.keys(result).filter((k) => !READ.has(k));
  const lines = [...brokenHooks(result), ...otherHookErrors(result)];
  return { exitCode: 0, stdout: '', stderr: lines.length === 0 ? '' : `${lines.join('\n')}\n`, dropped };
}

/**
 * The answer when no verdict could be reached (unreadable input, a config that does not load, an
 * internal error, an interrupt before a verdict): fail closed where the event can block — exit 2, or
 * PermissionRequest's JSON deny — and a non-blocking error (exit 1) elsewhere. `event` undefined (the
 * input named none, or one Claude Code does not have) is answered as an event that can block.
 */
export function claudeCodeFailure(
  event: string | undefined,
  canBlock: boolean,
  reason: string,
): ClaudeCodeAnswer {
  const line = `hookwarden: ${reason.split('\n')[0]}\n`;
  if (event === 'PermissionRequest') {
    const out = {
      hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: line.trim() } },
    };
    return { exitCode: 0, stdout: `${JSON.stringify(out)}\n`, stderr: line, dropped: [] };
  }
  return { exitCode: event === undefined || canBlock ? 2 : 1, stdout: '', stderr: line, dropped: [] };
}
