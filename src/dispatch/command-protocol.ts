// The command hook protocol (docs/semantics.md#command-hook-protocol): how a finished process (or a
// wasm hook's call) becomes an answer, in the dialect of the file that declared the hook (contract/dialects.ts).
//   exit 2                 → a block (stderr is the reason), every dialect
//   exit 0, empty stdout   → proceed
//   exit 0, JSON object    → the answer (hookwarden's, Claude Code's or a seed's vocabulary)
//   exit 0, other text     → hookwarden: invalid_output; claude-code: context on the events where
//                            Claude Code adds it, else nothing; freecode: nothing
//   other exits, 126/127, killed → a failure (the hook's onError applies); freecode: a block;
//                            claude-code: a JSON answer on stdout that denies, asks or stops counts
//                            (Claude Code 2.1.337 reads stdout's JSON whatever the exit code)
//   gemini                 → Gemini CLI's own reading, stdout or stderr at any exit code (gemini-command.ts)
//   timeout, spawn failure → a failure (freecode fails open: its hooks default to onError "skip")
//   CLAUDE_ENV_FILE text   → `envFile` (exit 0; SessionStart, Setup, CwdChanged, FileChanged), judged
//                            by the session-env rule before the fold (session-env-rule.ts)
// A hook of a file that could be more than one dialect is read in each, and the strictest reading
// counts (config/dialect.ts).

import { AGENTS, isAgent } from '../contract/agents/index.js';
import type { CommandOutcome } from '../contract/command-task.js';
import { DIALECT_RULES, type DialectRules, PLAIN_TEXT_CONTEXT_EVENTS } from '../contract/dialects.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import {
  answerContext,
  block,
  blockAnswer,
  type CommandAnswer,
  crashFailure,
  decides,
  excerpt,
  fail,
  type ProtocolHook,
  readAnswer,
  strictness,
} from './command-answer.js';
import { geminiCommandAnswer } from './gemini-command.js';

export { blockAnswer, type CommandAnswer };

/**
 * Events that cannot be blocked, where Claude Code (2.1.333 to 2.1.337) shows an exit 2's stderr to the user:
 * "Exit code 2 - show stderr to user only" (SessionStart, Setup, SubagentStart), and the events whose
 * reference gives exit 2 no meaning of its own ("Other exit codes - show stderr to user only").
 * StopFailure, DirectoryAdded and MessageDisplay ignore it (nothing is shown).
 */
const EXIT_2_SHOWN_TO_USER: ReadonlySet<string> = new Set([
  'SessionStart',
  'Setup',
  'BeforeSubagent',
  'Notification',
  'PermissionDenied',
  'AfterCompact',
  'PostModelSwitch',
  'SessionEnd',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
]);

/**
 * Events where Claude Code reads an exit 2 with no stdout and a "no such file" / "can't open" on
 * stderr as a hook script that is missing (a non-blocking error), not as "keep working" or a block:
 * the interpreter's own exit 2 (`python3 missing.py`, `bash missing.sh`). UserPromptSubmit only for a
 * plugin's hooks.
 */
const MISSING_SCRIPT_EVENTS: ReadonlySet<string> = new Set([
  'AfterTurn',
  'AfterSubagent',
  'TaskCompleted',
  'TeammateIdle',
]);

function missingScript(def: ProtocolHook, stdout: string, stderr: string): boolean {
  const applies =
    MISSING_SCRIPT_EVENTS.has(def.event) ||
    (def.event === 'BeforeTurn' && def.command?.pluginData !== undefined);
  return applies && stdout.trim() === '' && /no such file|can't open/i.test(stderr);
}

/**
 * Applies the command protocol of the hook's dialect to how the process ended; a hook of an
 * ambiguous file is read in each of its dialects too, and the strictest answer counts.
 */
export function interpretCommand(
  outcome: CommandOutcome,
  def: ProtocolHook,
  input: HookInput,
): CommandAnswer {
  let answer = interpretIn(outcome, def, input);
  for (const r of def.alsoReadAs ?? []) {
    const { agentEvent: _own, alsoReadAs: _also, ...rest } = def;
    const other: ProtocolHook = {
      ...rest,
      dialect: r.dialect,
      ...(r.agentEvent === undefined ? {} : { agentEvent: r.agentEvent }),
    };
    const read = interpretIn(outcome, other, input);
    if (strictness(read, def) > strictness(answer, def)) answer = read;
  }
  return answer;
}

/** A process that could not answer (never started, timed out, was cut short): a failure. */
function unanswered(outcome: Exclude<CommandOutcome, { kind: 'exited' }>): CommandAnswer {
  switch (outcome.kind) {
    case 'timeout':
      return fail('timeout', outcome.message);
    case 'aborted':
      return fail('aborted', outcome.message);
    case 'output_limit':
      return fail('output_limit', outcome.message, { limitBytes: outcome.limitBytes });
    case 'spawn_failed':
      return fail('spawn_failed', outcome.message);
    case 'isolation_unavailable':
      return fail('isolation_unavailable', outcome.message);
    case 'spawn_server_lost': {
      const { pid, exitCode, signal } = outcome.server;
      return fail('spawn_server_lost', outcome.message, {
        ...(pid === undefined ? {} : { pid }),
        ...(exitCode === null ? {} : { exitCode }),
        ...(signal === null ? {} : { signal }),
      });
    }
  }
}

/** One dialect's reading of how the process ended. */
function interpretIn(outcome: CommandOutcome, def: ProtocolHook, input: HookInput): CommandAnswer {
  if (outcome.kind !== 'exited') return unanswered(outcome);
  if (def.dialect === 'gemini') return geminiCommandAnswer(outcome, def, input);
  const rules = DIALECT_RULES[def.dialect];
  const context = answerContext(def, input);
  const { exitCode, signal, stdout, stderr } = outcome;
  // Claude Code backgrounds a hook whose first stdout line is {"async": true}: nothing it does after
  // reaches the verdict. hookwarden has waited for it; it counts as no opinion.
  if (def.dialect === 'claude-code' && announcesAsync(stdout))
    return { kind: 'output', output: undefined, unknownFields: ['async'] };
  if (exitCode === 2) return exitTwo(def, input, stdout, stderr);
  if (exitCode === 0) {
    const answer = readStdout(stdout, def, rules, input);
    if (outcome.envFileText === undefined || answer.kind !== 'output') return answer;
    return {
      ...answer,
      envFile: { text: outcome.envFileText, truncated: outcome.envFileTruncated === true },
    };
  }
  if (signal === 'SIGXCPU') return fail('timeout', 'CPU time limit (rlimits.cpuSeconds) exceeded');
  // Claude Code 2.1.337 reads a JSON answer on stdout whatever the exit code: one that denies, asks
  // or stops counts (any other is the failure below, never less strict than its allow).
  if (def.dialect === 'claude-code' && stdout.trim().startsWith('{')) {
    const read = readStdout(stdout, def, rules, input);
    if (decides(read, def)) return read;
  }
  const crash = crashFailure(exitCode, signal, stderr);
  // FreeCode: "a hook that crashes (typo, missing binary, non-zero exit from a linter) blocks the tool".
  if (rules.crash === 'block') return block(`hook failed: ${crash.error.message}`, def, context);
  return crash;
}

/** Exit 2: a block (stderr its reason), except where Claude Code reads it otherwise. */
function exitTwo(def: ProtocolHook, input: HookInput, stdout: string, stderr: string): CommandAnswer {
  if (def.dialect === 'claude-code' && missingScript(def, stdout, stderr)) {
    // Not "keep working" forever on a script that is not there: a broken hook (its onError applies).
    return fail(
      'spawn_failed',
      `the hook script appears to be missing: it exited 2 with: ${excerpt(stderr, 500)}`,
      { exitCode: 2 },
    );
  }
  if (def.dialect === 'claude-code' && EXIT_2_SHOWN_TO_USER.has(def.event)) {
    // Claude Code cannot block these; it shows exit 2's stderr to the user.
    const output: HookOutput = Object.create(null);
    output.systemMessage = excerpt(stderr) || 'hook exited with code 2';
    return { kind: 'output', output, unknownFields: [], exit2: true };
  }
  // Exit 2 blocks whatever stdout says; on Stop-like events Claude Code reads it as "keep working".
  const answer = blockAnswer(excerpt(stderr) || 'hook exited with code 2', def, input);
  return answer.kind === 'output' ? { ...answer, exit2: true } : answer;
}

/** Whether the first line of `stdout` is a JSON object with `async: true`. */
function announcesAsync(stdout: string): boolean {
  const first = stdout.trimStart().split('\n', 1)[0]?.trim() ?? '';
  if (!first.startsWith('{') || !first.includes('async')) return false;
  try {
    const value: unknown = JSON.parse(first);
    return typeof value === 'object' && value !== null && (value as { async?: unknown }).async === true;
  } catch {
    return false;
  }
}

/** Claude Code's plain-text context, as a (null-prototype) answer. */
function plainContext(text: string): HookOutput {
  const output: HookOutput = Object.create(null);
  output.additionalContext = text;
  return output;
}

/** Exit 0: empty, a JSON answer, or plain text (read by the dialect's rule). */
function readStdout(stdout: string, def: ProtocolHook, rules: DialectRules, input: HookInput): CommandAnswer {
  const text = stdout.trim();
  if (text === '') {
    // Cursor blocks a failClosed hook that says nothing where it asks for a permission.
    if (rules.silentGateFails === true && def.onError === 'deny' && takesPermission(def))
      return fail(
        'invalid_output',
        'the hook answered nothing, and it fails closed (Cursor: "returned no output")',
      );
    return { kind: 'output', output: undefined, unknownFields: [] };
  }
  // Text that opens like a JSON object is one, in every dialect: a broken answer is an error.
  if (rules.plainStdout !== 'invalid_output' && !text.startsWith('{')) {
    const addsContext =
      rules.plainStdout === 'context' &&
      (rules.plainContextEvents ?? PLAIN_TEXT_CONTEXT_EVENTS).has(def.event);
    return { kind: 'output', output: addsContext ? plainContext(text) : undefined, unknownFields: [] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail('invalid_output', `stdout is not JSON: ${JSON.stringify(excerpt(text, 120))}`);
  }
  // `null` on stdout is no answer object (a JS hook's null is "proceed"; a process's is not an answer).
  if (raw === null) return fail('invalid_output', 'stdout is JSON null, not an answer object');
  return readAnswer(raw, def, input);
}

/** Whether the hook's agent event answers with a permission (Cursor's gates). */
function takesPermission(def: ProtocolHook): boolean {
  if (def.agentEvent === undefined || !isAgent(def.dialect)) return false;
  const e = AGENTS[def.dialect].events[def.agentEvent];
  return e?.canBlock === true;
}
