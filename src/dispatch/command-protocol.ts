// The command hook protocol (docs/semantics.md#command-hook-protocol): how a finished process (or a
// wasm hook's call) becomes an answer, in the dialect of the file that declared the hook (contract/dialects.ts).
//   exit 2                 → a block (stderr is the reason), every dialect
//   exit 0, empty stdout   → proceed
//   exit 0, JSON object    → the answer (hookwarden's, Claude Code's or a seed's vocabulary)
//   exit 0, other text     → hookwarden: invalid_output; claude-code: context on the events where
//                            Claude Code adds it, else nothing; freecode: nothing
//   other exits, 126/127, killed → a failure (the hook's onError applies); freecode: a block
//   timeout, spawn failure → a failure (freecode fails open: its hooks default to onError "skip")
//   CLAUDE_ENV_FILE text   → `envFile` (exit 0; SessionStart, Setup, CwdChanged, FileChanged), judged
//                            by the session-env rule before the fold (session-env-rule.ts)

import { DEFAULTS } from '../config/defaults.js';
import { AGENTS, isAgent } from '../contract/agents/index.js';
import type { CommandOutcome } from '../contract/command-task.js';
import { DIALECT_RULES, type DialectRules, PLAIN_TEXT_CONTEXT_EVENTS } from '../contract/dialects.js';
import { type ErrorCode, type ErrorDetails, type HookError, hookError } from '../contract/error-codes.js';
import { type AnswerContext, parseHookOutput } from '../contract/parse-output.js';
import { capText } from '../contract/text-caps.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import type { CommandHookDefinition } from '../registry/hook-definition.js';

/**
 * What the protocol reads of a hook: its event, dialect, agent event and onError, and (Claude Code
 * plugins) its plugin data. Command hooks, and wasm hooks, which answer as they do.
 */
export type ProtocolHook = Pick<CommandHookDefinition, 'event' | 'dialect' | 'agentEvent' | 'onError'> & {
  readonly command?: { readonly pluginData: string | undefined };
};

export type CommandAnswer =
  /** `exit2`: the command exited 2 (an async rewake hook wakes the agent whatever it maps to). */
  | {
      kind: 'output';
      output: HookOutput | undefined;
      unknownFields: string[];
      exit2?: true;
      /** What the hook wrote to CLAUDE_ENV_FILE: the dispatch judges it by the session-env rule. */
      envFile?: { readonly text: string; readonly truncated: boolean };
    }
  | { kind: 'failure'; error: HookError };

/**
 * Events that cannot be blocked, where Claude Code 2.1.333 shows an exit 2's stderr to the user:
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

/** Trimmed, and within `max` UTF-8 bytes (the deny reason from stderr gets the reason cap). */
function excerpt(text: string, max: number = DEFAULTS.maxReasonBytes): string {
  return capText(text.trim(), max);
}

const fail = <C extends ErrorCode>(code: C, message: string, details?: ErrorDetails[C]): CommandAnswer => ({
  kind: 'failure',
  error: hookError(code, message, details),
});

/** A block answer (exit 2, or a FreeCode crash), read like `{"decision":"block","reason":…}`. */
function block(reason: string, def: ProtocolHook, context: AnswerContext): CommandAnswer {
  const parsed = parseHookOutput({ decision: 'block', reason }, def.event, context);
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

/** A block from the hook's side that the process did not answer (e.g. it could not be given its input). */
export function blockAnswer(reason: string, def: ProtocolHook, input: HookInput): CommandAnswer {
  return block(reason, def, { dialect: def.dialect, toolInput: input.toolInput });
}

/** How an answer of the hook is read: its dialect, the input it was given, its agent event. */
const answerContext = (def: ProtocolHook, input: HookInput): AnswerContext => ({
  dialect: def.dialect,
  toolInput: input.toolInput,
  agentEvent: def.agentEvent,
  input,
});

/** Exit 2 as the dialect reads it: Gemini's deny (a hidden tool result on AfterTool), else a block. */
function exit2(reason: string, def: ProtocolHook, input: HookInput): CommandAnswer {
  if (def.dialect !== 'gemini' || def.agentEvent === undefined) return blockAnswer(reason, def, input);
  const parsed = parseHookOutput({ decision: 'deny', reason }, def.event, answerContext(def, input));
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

/** Applies the command protocol of the hook's dialect to how the process ended. */
export function interpretCommand(
  outcome: CommandOutcome,
  def: ProtocolHook,
  input: HookInput,
): CommandAnswer {
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
    case 'exited':
      break;
  }
  const rules = DIALECT_RULES[def.dialect];
  const context = answerContext(def, input);
  const { exitCode, signal, stdout, stderr } = outcome;
  // Claude Code backgrounds a hook whose first stdout line is {"async": true}: nothing it does after
  // reaches the verdict. hookwarden has waited for it; it counts as no opinion.
  if (def.dialect === 'claude-code' && announcesAsync(stdout))
    return { kind: 'output', output: undefined, unknownFields: ['async'] };
  if (exitCode === 2 && def.dialect === 'claude-code' && missingScript(def, stdout, stderr)) {
    // Not "keep working" forever on a script that is not there: a broken hook (its onError applies).
    return fail(
      'spawn_failed',
      `the hook script appears to be missing: it exited 2 with: ${excerpt(stderr, 500)}`,
      { exitCode: 2 },
    );
  }
  if (exitCode === 2 && def.dialect === 'claude-code' && EXIT_2_SHOWN_TO_USER.has(def.event)) {
    // Claude Code cannot block these; it shows exit 2's stderr to the user.
    const output: HookOutput = Object.create(null);
    output.systemMessage = excerpt(stderr) || 'hook exited with code 2';
    return { kind: 'output', output, unknownFields: [], exit2: true };
  }
  if (exitCode === 2) {
    // Exit 2 blocks whatever stdout says; on Stop-like events Claude Code reads it as "keep working".
    const answer = exit2(excerpt(stderr) || 'hook exited with code 2', def, input);
    return answer.kind === 'output' ? { ...answer, exit2: true } : answer;
  }
  if (exitCode !== 0 && rules.crash === 'gemini') {
    const read = geminiCrash(exitCode, stdout, stderr, def, input, rules);
    if (read !== undefined) return read;
  }
  if (exitCode === 0) {
    const answer = readStdout(stdout, def, rules, context);
    if (outcome.envFileText === undefined || answer.kind !== 'output') return answer;
    return {
      ...answer,
      envFile: { text: outcome.envFileText, truncated: outcome.envFileTruncated === true },
    };
  }
  if (signal === 'SIGXCPU') return fail('timeout', 'CPU time limit (rlimits.cpuSeconds) exceeded');
  const crash = crashFailure(exitCode, signal, stderr);
  // FreeCode: "a hook that crashes (typo, missing binary, non-zero exit from a linter) blocks the tool".
  if (rules.crash === 'block') return block(`hook failed: ${crash.error.message}`, def, context);
  return crash;
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

/** A process that ended other than with exit 0 or 2. */
function crashFailure(
  exitCode: number | null,
  signal: string | null,
  stderr: string,
): Extract<CommandAnswer, { kind: 'failure' }> {
  const said = stderr.trim() ? `: ${excerpt(stderr, 500)}` : '';
  const answer =
    exitCode === null
      ? fail('nonzero_exit', `killed by ${signal ?? 'a signal'}${said}`, signal === null ? {} : { signal })
      : exitCode === 126 || exitCode === 127
        ? fail(
            'spawn_failed',
            `could not execute the hook (exit ${exitCode}): ${excerpt(stderr, 500) || 'command not found'}`,
            { exitCode },
          )
        : fail('nonzero_exit', `exited with code ${exitCode}${said}`, { exitCode });
  return answer as Extract<CommandAnswer, { kind: 'failure' }>;
}

/** Claude Code's plain-text context, as a (null-prototype) answer. */
function plainContext(text: string): HookOutput {
  const output: HookOutput = Object.create(null);
  output.additionalContext = text;
  return output;
}

/** Exit 0: empty, a JSON answer, or plain text (read by the dialect's rule). */
function readStdout(
  stdout: string,
  def: ProtocolHook,
  rules: DialectRules,
  context: AnswerContext,
): CommandAnswer {
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
  const parsed = parseHookOutput(raw, def.event, context);
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

/** Whether the hook's agent event answers with a permission (Cursor's gates). */
function takesPermission(def: ProtocolHook): boolean {
  if (def.agentEvent === undefined || !isAgent(def.dialect)) return false;
  const e = AGENTS[def.dialect].events[def.agentEvent];
  return e?.canBlock === true;
}

/**
 * Gemini CLI's reading of a hook that exits non-zero: stdout (else stderr) parsed as JSON is its
 * answer whatever the code; text with exit 1 is a warning, with exit 3 or more a deny (its reason
 * the text). Undefined: a plain failure.
 */
function geminiCrash(
  exitCode: number | null,
  stdout: string,
  stderr: string,
  def: ProtocolHook,
  input: HookInput,
  rules: DialectRules,
): CommandAnswer | undefined {
  if (exitCode === null) return undefined; // killed: a failure (Gemini takes it for success)
  const text = stdout.trim() || stderr.trim();
  if (text === '') return undefined;
  if (text.startsWith('{')) {
    const answer = readStdout(text, def, rules, answerContext(def, input));
    if (answer.kind === 'output') return answer;
  }
  if (exitCode >= 3) return exit2(excerpt(text), def, input);
  return undefined;
}
