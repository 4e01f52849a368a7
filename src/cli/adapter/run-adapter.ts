// `hookwarden <agent> --config <file>…`: one adapter for every agent (Claude Code, Codex, Gemini CLI,
// Cursor, Copilot CLI; the spec says how each reads and answers). The agent runs it as a hook: it
// reads ONE hook input on stdin, runs the matching hooks under hookwarden, and answers in the agent's
// protocol.
//
// It is started once per event, so it is built for start-up time: main.ts runs it without commander,
// and this module loads no schema. When the config files certainly have no hook for the input
// (quick-scan.ts), it answers at once; otherwise full-dispatch.ts loads the dispatcher.
//
// It fails closed: input it cannot read, bad flags, a config that does not load, a config that routes
// through an adapter itself, an internal error or an interrupt before a verdict get the agent's
// blocking answer where the event can block or is unknown, and a non-blocking error (one line) on
// the other events.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { dispatchResult } from '../../contract/result.js';
import { configIdentity } from '../../server/config-identity.js';
import { clientFallbackNote, startDaemonIfAsked } from '../claude-code/daemon/start.js';
import { type AdapterFlags, parseAdapterArgs, timeoutMs } from '../claude-code/flags.js';
import { forwardDispatch } from '../claude-code/forward.js';
import { InputProblem, MAX_STDIN_BYTES, readCapped } from '../claude-code/input.js';
import { nothingCanRun, readScannable } from '../claude-code/quick-scan.js';
import { refusedRouting } from '../claude-code/routing.js';
import { startDeadline } from '../deadline.js';
import { claimInterrupts } from '../interrupt.js';
import type { CliAnswer } from '../one-dispatch.js';
import { stdinHasInput } from '../stdin.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer.js';
import { declareAnswer } from './answer-fd.js';
import type { AdapterInput, AdapterSpec } from './spec.js';

function write(a: CliAnswer, then?: () => void): number {
  if (a.stderr !== undefined && a.stderr !== '') process.stderr.write(a.stderr);
  process.stdout.write(a.stdout, then);
  declareAnswer(a.code);
  return a.code;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The sandbox root: --root, else the project the agent runs in, else the current directory. */
function withRoot(spec: AdapterSpec, flags: AdapterFlags, env: Env, cwd: string): AdapterFlags {
  if (flags.root !== undefined || spec.projectDirEnv === undefined) return flags;
  const project = env[spec.projectDirEnv];
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
 * code). `env` and `cwd` are the caller's (the Claude Code daemon parses for the process it answers).
 */
export function parseFlags(
  spec: AdapterSpec,
  args: readonly string[],
  env: Env = process.env,
  cwd = process.cwd(),
): AdapterFlags | UsageError {
  try {
    const flags = parseAdapterArgs(args, spec.extraFlags);
    timeoutMs(flags);
    if ((flags.config ?? []).length + (flags.userConfig ?? []).length + (flags.policy ?? []).length === 0)
      return new UsageError(`${spec.command} needs at least one --config <file> (or --policy <file>)`);
    return withRoot(spec, flags, env, cwd);
  } catch (err) {
    return new UsageError(`${(err as Error).message}; see \`hookwarden ${spec.command} --help\``);
  }
}

/** Config files that route through an adapter are refused; returns the refusal and the files not parsed. */
export function checkRouting(
  flags: AdapterFlags,
  read: (path: string) => Record<string, unknown> | undefined = readScannable,
): { refusal?: string; unparsed: string[] } {
  const unparsed: string[] = [];
  for (const path of [...(flags.policy ?? []), ...(flags.userConfig ?? []), ...(flags.config ?? [])]) {
    const file = read(path);
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

/** The value of `--event` in arguments that do not parse as a whole (undefined: none). */
function eventArg(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--event') return args[i + 1];
    if (args[i]!.startsWith('--event=')) return args[i]!.slice('--event='.length);
  }
  return undefined;
}

/**
 * Reads the input on stdin (a terminal or /dev/null has none) and hands it to the spec, with the
 * flags (or, when they do not parse, only the event the command line names).
 */
async function readInput(spec: AdapterSpec, flags: AdapterFlags): Promise<AdapterInput> {
  const none = `no input on stdin: ${spec.title} pipes each hook its event as JSON`;
  if (!stdinHasInput()) throw new InputProblem(none, flags.event);
  let bytes: Buffer;
  try {
    bytes = await readCapped(process.stdin, MAX_STDIN_BYTES);
  } catch (err) {
    if (err instanceof InputProblem) throw err;
    throw new InputProblem(`cannot read stdin (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') throw new InputProblem(none, flags.event);
  return spec.read(text, flags);
}

/** The quick scan reads Claude Code's `tool_name`; a dispatch input names the tool in either case. */
export const scanInput = (input: Record<string, unknown>) =>
  typeof input.toolName === 'string' ? { ...input, tool_name: input.toolName } : input;

/** The event the hook is for, when the command line says it (Copilot's): even beside a bad flag. */
function eventOfArgs(spec: AdapterSpec, flags: AdapterFlags | UsageError, args: readonly string[]) {
  if (!(flags instanceof UsageError)) return flags.event;
  return spec.extraFlags.some((f) => f.name === 'event') ? eventArg(args) : undefined;
}

/** The agent's answer when no hook can run for the input: nobody decided. */
function passthroughAnswer(spec: AdapterSpec, read: AdapterInput, flags: AdapterFlags): CliAnswer {
  const result = dispatchResult({ event: read.dispatchEvent, decision: 'passthrough' });
  return toCliAnswer(spec, spec.answer(read, result, flags));
}

async function runAdapter(spec: AdapterSpec, args: readonly string[]): Promise<number> {
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
  const fail = (err: unknown) => answer(failureAnswer(spec, event, err)) ?? never();
  // After `fast`, the full path claims interrupts itself (a signal meanwhile is handed over to it).
  claimInterrupts((signal) => {
    answer(failureAnswer(spec, event, new UsageError(`interrupted (${signal}) before a verdict`)), true);
  });
  const flags = parseFlags(spec, args);
  event = eventOfArgs(spec, flags, args);
  const deadlineMs = flags instanceof UsageError ? undefined : timeoutMs(flags);
  const deadline = startDeadline(deadlineMs, () => {
    const why = `no verdict within --timeout ${(flags as AdapterFlags).timeout} s`;
    answer(failureAnswer(spec, event, new UsageError(why)), true);
  });
  try {
    let read: AdapterInput;
    try {
      read = await readInput(
        spec,
        flags instanceof UsageError ? (event === undefined ? {} : { event }) : flags,
      );
      event = read.event;
    } catch (err) {
      const named = (err as { event?: unknown }).event;
      if (typeof named === 'string') event = named;
      return await fail(err);
    }
    if (flags instanceof UsageError) return await fail(flags);
    const routing = checkRouting(flags);
    if (routing.refusal !== undefined) return await fail(new UsageError(routing.refusal));
    if (nothingCanRun(flags, read.dispatchEvent, scanInput(read.input)))
      return answer(passthroughAnswer(spec, read, flags)) ?? never();
    const notes: string[] = [];
    // hookwarden-client (Claude Code's) ran this adapter because its daemon could not answer.
    const client = clientFallbackNote();
    if (client !== undefined) notes.push(client);
    const socket = socketOf(flags);
    const own = socket === undefined ? undefined : unforwardable(flags);
    if (own !== undefined)
      notes.push(`hookwarden: the daemon was not used (${own}): dispatched in this process`);
    else if (socket !== undefined) {
      const forwarded = await forwardDispatch(socket, read.dispatchEvent, read.input, identityOf(flags));
      if (forwarded.kind === 'result')
        return answer(toCliAnswer(spec, spec.answer(read, forwarded.result, flags))) ?? never();
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
    return await full.runFullDispatch(spec, flags, read, {
      unparsed: routing.unparsed,
      notes,
      deadlineMs: left,
    });
  } finally {
    if (deadline !== undefined) clearTimeout(deadline);
  }
}

/**
 * The adapter command: runs the adapter, then, once its answer is out, starts the daemon that
 * hookwarden-client asked for (it found none for this configuration and ran this adapter instead).
 */
export async function runAdapterCommand(spec: AdapterSpec, args: readonly string[]): Promise<number> {
  const code = await runAdapter(spec, args);
  if (!(parseFlags(spec, args) instanceof UsageError)) await startDaemonIfAsked(spec.command, args);
  return code;
}
