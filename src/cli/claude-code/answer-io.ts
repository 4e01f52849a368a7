// What the adapter prints for an answer (and the CLAUDE_ENV_FILE it appends to), and its answer to
// a failure. Dependency-free, for the fast path and the full one alike.
import { type ClaudeCodeAnswer, claudeCodeFailure } from '../../contract/claude-code-answer.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isHookwardenError } from '../../contract/hookwarden-error.js';
import type { CliAnswer } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { appendEnvFile } from './env-file.js';
import { InputProblem } from './input.js';

/** The answer printed: notes (config warnings, env file problems) only when stderr is not a reason. */
export function toCliAnswer(
  a: ClaudeCodeAnswer,
  notes: readonly string[] = [],
  envFile: string | undefined = process.env.CLAUDE_ENV_FILE,
): CliAnswer {
  const all = [...notes];
  if (a.sessionEnvScript !== undefined) all.push(...appendEnvFile(envFile, a.sessionEnvScript));
  const extra = a.exitCode === 2 || all.length === 0 ? '' : `${all.join('\n')}\n`;
  return { code: a.exitCode, stdout: a.stdout, stderr: a.stderr + extra };
}

/** Whether a failure on `event` blocks (the built-in catalogue says the event can deny; unknown: yes). */
export const canBlock = (event: string | undefined): boolean =>
  event === undefined || (new EventCatalogue(DEFAULT_EVENTS).get(event)?.canDeny ?? true);

/** The fail-closed answer to an error: one line, never a stack trace (unless HOOKWARDEN_DEBUG=1). */
export function failureAnswer(
  event: string | undefined,
  err: unknown,
  debug = process.env.HOOKWARDEN_DEBUG === '1',
): CliAnswer {
  const known = err instanceof UsageError || err instanceof InputProblem || isHookwardenError(err);
  const message = err instanceof Error ? err.message : String(err);
  const reason = known ? message : `internal error: ${err instanceof Error ? err.name : 'Error'}: ${message}`;
  const a = toCliAnswer(claudeCodeFailure(event, canBlock(event), reason));
  if (debug && err instanceof Error && !known && a.code !== 2)
    return { ...a, stderr: `${a.stderr}${err.stack}\n` };
  return a;
}
