// What an adapter prints for an answer (and the session variables it hands on), and its answer to
// a failure, for any agent (the spec says how). Dependency-free, for the fast path and the full one.
import type { AgentAnswer } from '../../contract/agents/protocol.js';
import { AgentInputProblem } from '../../contract/agents/protocol.js';
import { isHookwardenError } from '../../contract/hookwarden-error.js';
import { InputProblem } from '../claude-code/input.js';
import type { CliAnswer } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import type { AdapterSpec } from './spec.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The answer printed: notes (config warnings, env file problems) only when stderr is not a reason.
 * `env` is the caller's (the Claude Code daemon answers for another process).
 */
export function toCliAnswer(
  spec: AdapterSpec,
  a: AgentAnswer,
  notes: readonly string[] = [],
  env: Env = process.env,
): CliAnswer {
  const all = [...notes];
  if (a.sessionEnvScript !== undefined && spec.writeSessionEnv !== undefined)
    all.push(...spec.writeSessionEnv(a.sessionEnvScript, env));
  const extra = a.exitCode === 2 || all.length === 0 ? '' : `${all.join('\n')}\n`;
  return { code: a.exitCode, stdout: a.stdout, stderr: a.stderr + extra };
}

/** The fail-closed answer to an error: one line, never a stack trace (unless HOOKWARDEN_DEBUG=1). */
export function failureAnswer(
  spec: AdapterSpec,
  event: string | undefined,
  err: unknown,
  debug = process.env.HOOKWARDEN_DEBUG === '1',
): CliAnswer {
  const known =
    err instanceof UsageError ||
    err instanceof InputProblem ||
    err instanceof AgentInputProblem ||
    isHookwardenError(err);
  const message = err instanceof Error ? err.message : String(err);
  const reason = known ? message : `internal error: ${err instanceof Error ? err.name : 'Error'}: ${message}`;
  const a = toCliAnswer(spec, spec.failure(event, reason));
  if (debug && err instanceof Error && !known && a.code !== 2)
    return { ...a, stderr: `${a.stderr}${err.stack}\n` };
  return a;
}
