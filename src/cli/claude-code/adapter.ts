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
import { toClaudeCodeAnswer } from '../../contract/claude-code-answer.js';
import { claimInterrupts } from '../interrupt.js';
import type { CliAnswer } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer-io.js';
import { type AdapterFlags, parseAdapterArgs, timeoutMs } from './flags.js';
import { InputProblem, readClaudeCodeInput } from './input.js';
import { nothingCanRun, readScannable } from './quick-scan.js';
import { refusedRouting } from './routing.js';

function write(a: CliAnswer, then?: () => void): number {
  if (a.stderr !== undefined && a.stderr !== '') process.stderr.write(a.stderr);
  process.stdout.write(a.stdout, then);
  return a.code;
}

/** The sandbox root: --root, else the project Claude Code runs in, else the current directory. */
function withRoot(flags: AdapterFlags): AdapterFlags {
  if (flags.root !== undefined) return flags;
  const project = process.env.CLAUDE_PROJECT_DIR;
  try {
    if (project !== undefined && project !== '' && statSync(project).isDirectory())
      return { ...flags, root: project };
  } catch {
    // a project directory that is gone: the current directory, as without it
  }
  return flags;
}

/** Parses the flags; a problem is kept for the answer (the event, read from stdin, decides its exit code). */
function parseFlags(args: readonly string[]): AdapterFlags | UsageError {
  try {
    const flags = parseAdapterArgs(args);
    timeoutMs(flags);
    if ((flags.config ?? []).length + (flags.userConfig ?? []).length + (flags.policy ?? []).length === 0)
      return new UsageError('claude-code needs at least one --config <file> (or --policy <file>)');
    return withRoot(flags);
  } catch (err) {
    return new UsageError(`${(err as Error).message}; see \`hookwarden claude-code --help\``);
  }
}

/** Config files that route through the adapter are refused; returns the refusal and the files not parsed. */
function checkRouting(flags: AdapterFlags): { refusal?: string; unparsed: string[] } {
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

export async function runClaudeCodeAdapter(args: readonly string[]): Promise<number> {
  let stage = 'read' as 'read' | 'full' | 'done';
  let event: string | undefined;
  claimInterrupts((signal) => {
    // After `read`, the full path claims interrupts itself (a signal meanwhile is handed over to it).
    if (stage !== 'read') return;
    stage = 'done';
    const a = failureAnswer(event, new UsageError(`interrupted (${signal}) before a verdict`));
    write(a, () => process.exit(a.code));
  });
  const never = () => new Promise<number>(() => {});
  const flags = parseFlags(args);
  let input: Record<string, unknown>;
  try {
    ({ event, input } = await readClaudeCodeInput());
  } catch (err) {
    if (stage === 'done') return never();
    stage = 'done';
    return write(failureAnswer(err instanceof InputProblem ? err.event : undefined, err));
  }
  if (stage === 'done') return never();
  if (flags instanceof UsageError) {
    stage = 'done';
    return write(failureAnswer(event, flags));
  }
  const routing = checkRouting(flags);
  if (routing.refusal !== undefined) {
    stage = 'done';
    return write(failureAnswer(event, new UsageError(routing.refusal)));
  }
  if (nothingCanRun(flags, event, input)) {
    stage = 'done';
    return write(toCliAnswer(toClaudeCodeAnswer(event, { event, decision: 'passthrough', hooks: [] })));
  }
  stage = 'full';
  let full: typeof import('./full-dispatch.js');
  try {
    full = await import('./full-dispatch.js');
  } catch (err) {
    stage = 'done';
    return write(failureAnswer(event, err));
  }
  // It answers its own errors and interrupts (a signal since `read` ended is handed over to it).
  return full.runFullDispatch(flags, event, input, routing.unparsed);
}
