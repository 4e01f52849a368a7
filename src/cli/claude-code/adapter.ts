// `hookwarden claude-code --config <file>…`: the Claude Code adapter. Claude Code runs it as a hook:
// it reads ONE hook input on stdin (the event from `hook_event_name`), runs the matching hooks under
// hookwarden, and answers in Claude Code's protocol (claude-code-answer.ts).
//
// It is started once per event, so it is built for start-up time: main.ts runs it without commander,
// and this module loads no schema. When the config files certainly have no hook for the input
// (quick-scan.ts), it answers at once; otherwise full-dispatch.ts loads the dispatcher.
//
// It fails closed: input it cannot read, bad flags, a config that does not load, a config that routes
// through the adapter itself, an internal error or an interrupt before a verdict answer exit 2 (a
// block) where the event can block or is unknown, PermissionRequest's JSON deny there, and exit 1 (a
// non-blocking error, one line on stderr) on the other events.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { toClaudeCodeAnswer } from '../../contract/claude-code-answer.js';
import { configIdentity } from '../../server/config-identity.js';
import { claimInterrupts } from '../interrupt.js';
import type { CliAnswer } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer-io.js';
import { clientFallbackNote, startDaemonIfAsked } from './daemon/start.js';
import { type AdapterFlags, parseAdapterArgs, timeoutMs } from './flags.js';
import { forwardDispatch } from './forward.js';
import { InputProblem, readClaudeCodeInput } from './input.js';
import { nothingCanRun, readScannable } from './quick-scan.js';
import { refusedRouting } from './routing.js';

function write(a: CliAnswer, then?: () => void): number {
  if (a.stderr !== undefined && a.stderr !== '') process.stderr.write(a.stderr);
  process.stdout.write(a.stdout, then);
  return a.code;
}

/** The sandbox root: --root, else the project Claude Code runs in, else the current directory. */
function withRoot(flags: AdapterFlags, env: Readonly<Record<string, string | undefined>>, cwd: string) {
  if (flags.root !== undefined) return flags;
  const project = env.CLAUDE_PROJECT_DIR;
  try {
    if (project !== undefined && project !== '' && statSync(resolve(cwd, project)).isDirectory())
      return { ...flags, root: project };
  } catch {
    // a project directory that is gone: the current directory, as without it
  }
  return flags;
}

/**
 * Parses the flags; a problem is kept for the answer (the event, read from stdin, decides its exit
 * code). `env` and `cwd` are the caller's (the daemon parses for the process it answers).
 */
export function parseFlags(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): AdapterFlags | UsageError {
  try {
    const flags = parseAdapterArgs(args);
    timeoutMs(flags);
    if ((flags.config ?? []).length + (flags.userConfig ?? []).length + (flags.policy ?? []).length === 0)
      return new UsageError('claude-code needs at least one --config <file> (or --policy <file>)');
    return withRoot(flags, env, cwd);
  } catch (err) {
    return new UsageError(`${(err as Error).message}; see \`hookwarden claude-code --help\``);
  }
}

/** Config files that route through the adapter are refused; returns the refusal and the files not parsed. */
export function checkRouting(flags: AdapterFlags): { refusal?: string; unparsed: string[] } {
  const unparsed: string[] = [];
  for (const path of [...(flags.policy ?? []), ...(flags.userConfig ?? []), ...(flags.config ?? [])]) {
    const file = readScannable(path);
    if (file === undefined) unparsed.push(path);
    else {
      const refusal = refusedRouting(path, file);
      if (refusal !== undefined) return { refusal, unparsed };
    }
  }
  return { unparsed };
}

/** The daemon's socket: --socket, else $HOOKWARDEN_SOCKET (empty: none). */
const socketOf = (flags: AdapterFlags) => flags.socket ?? (process.env.HOOKWARDEN_SOCKET || undefined);

/** Flags of this process the daemon cannot honour (its own --audit, --strict… are its operator's). */
export function unforwardable(flags: AdapterFlags): string | undefined {
  const own = (['strict', 'audit', 'auditKey', 'packCache'] as const).filter((k) => flags[k] !== undefined);
  return own.length === 0
    ? undefined
    : `${own.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} given to the adapter`;
}

/** The configuration this adapter runs, as the daemon names its own (config-identity.ts). */
export const identityOf = (flags: AdapterFlags, cwd = process.cwd()) =>
  configIdentity(
    [...(flags.userConfig ?? []).map((path) => ({ path, scope: 'user' })), ...(flags.config ?? [])],
    flags.policy ?? [],
    flags.root,
    cwd,
  );

export async function runClaudeCodeAdapter(args: readonly string[]): Promise<number> {
  const code = await runAdapter(args);
  // hookwarden-client found no daemon and ran this adapter instead: start one for its next call.
  if (!(parseFlags(args) instanceof UsageError)) await startDaemonIfAsked(args);
  return code;
}

async function runAdapter(args: readonly string[]): Promise<number> {
  const startedAt = performance.now();
  // fast: this module answers (signals, --timeout, errors); full: full-dispatch.ts does.
  let stage = 'fast' as 'fast' | 'full' | 'done';
  let event: string | undefined;
  const never = () => new Promise<number>(() => {});
  /** The one answer of the fast stage; undefined when it is over (another answer is out). */
  const answer = (a: CliAnswer, thenExit = false): number | undefined => {
    if (stage !== 'fast') return undefined;
    stage = 'done';
    return write(a, thenExit ? () => process.exit(a.code) : undefined);
  };
  const fail = (err: unknown) => answer(failureAnswer(event, err)) ?? never();
  // After `fast`, the full path claims interrupts itself (a signal meanwhile is handed over to it).
  claimInterrupts((signal) => {
    answer(failureAnswer(event, new UsageError(`interrupted (${signal}) before a verdict`)), true);
  });
  const flags = parseFlags(args);
  const deadlineMs = flags instanceof UsageError ? undefined : timeoutMs(flags);
  const deadline =
    deadlineMs === undefined
      ? undefined
      : setTimeout(() => {
          const why = `no verdict within --timeout ${(flags as AdapterFlags).timeout} s`;
          answer(failureAnswer(event, new UsageError(why)), true);
        }, deadlineMs);
  deadline?.unref();
  try {
    let input: Record<string, unknown>;
    try {
      ({ event, input } = await readClaudeCodeInput());
    } catch (err) {
      if (err instanceof InputProblem) event = err.event;
      return await fail(err);
    }
    if (flags instanceof UsageError) return await fail(flags);
    const routing = checkRouting(flags);
    if (routing.refusal !== undefined) return await fail(new UsageError(routing.refusal));
    if (nothingCanRun(flags, event, input))
      return (
        answer(toCliAnswer(toClaudeCodeAnswer(event, { event, decision: 'passthrough', hooks: [] }))) ??
        never()
      );
    const notes: string[] = [];
    const client = clientFallbackNote();
    if (client !== undefined) notes.push(client);
    const socket = socketOf(flags);
    const own = socket === undefined ? undefined : unforwardable(flags);
    if (own !== undefined)
      notes.push(`hookwarden: the daemon was not used (${own}): dispatched in this process`);
    else if (socket !== undefined) {
      const forwarded = await forwardDispatch(socket, event, input, identityOf(flags));
      if (forwarded.kind === 'result')
        return answer(toCliAnswer(toClaudeCodeAnswer(event, forwarded.result))) ?? never();
      notes.push(`hookwarden: the daemon was not used (${forwarded.why}): dispatched in this process`);
    }
    if (stage !== 'fast') return never();
    stage = 'full';
    let full: typeof import('./full-dispatch.js');
    try {
      full = await import('./full-dispatch.js');
    } catch (err) {
      stage = 'fast';
      return await fail(err);
    }
    const left =
      deadlineMs === undefined ? undefined : Math.max(1, deadlineMs - (performance.now() - startedAt));
    // It answers its own errors, interrupts and the rest of the deadline.
    return await full.runFullDispatch(flags, event, input, {
      unparsed: routing.unparsed,
      notes,
      deadlineMs: left,
    });
  } finally {
    if (deadline !== undefined) clearTimeout(deadline);
  }
}
