// Ctrl-C (SIGINT) and SIGTERM for the commands that answer them: `dispatch` and `claude-code` (the
// interrupted verdict), `bench` (no result) and `serve` (drain). main.ts installs the handlers before
// anything else is imported, so a signal at any moment after the entry script starts has a defined
// answer instead of Node's default (the process dies, nothing on stdout). Dependency-free on purpose:
// it loads in microseconds. A signal that arrives before the command has loaded is held and handed
// over when it claims it (within milliseconds: the command only has modules to load).
//
// Other commands (validate, pack, audit, doctor, schema, claude-code install) keep Node's default:
// the signal ends them at once (the shell reports 130 or 143).

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal number: what a shell reports for a process a signal ended. */
export const signalExitCode = (signal: InterruptSignal): number => (signal === 'SIGINT' ? 130 : 143);

/** `repeated`: a second (third…) signal, the user insisting: answer now, do not wait for cleanup. */
type Responder = (signal: InterruptSignal, repeated: boolean) => void;

/** Commands that answer an interrupt themselves (the CLI's first argument). */
const CLAIMING = new Set(['dispatch', 'bench', 'serve', 'claude-code']);
/** Their subcommands that do not (the CLI's second argument). */
const NOT_CLAIMING = new Set(['install']);

/**
 * The process's one interrupt state. Kept on globalThis, not in this module: the Claude Code adapter
 * runs from a CommonJS bundle and loads the dispatcher from the ES module bundle, so this module can
 * be loaded twice in one process (claude-code/adapter-main.ts); both copies must share the handlers.
 */
interface InterruptState {
  received: InterruptSignal | undefined;
  responder: Responder | undefined;
  installed: boolean;
}
const STATE_KEY = Symbol.for('hookwarden.cli.interrupts');
const state: InterruptState = ((globalThis as Record<symbol, unknown>)[STATE_KEY] as
  | InterruptState
  | undefined) ?? {
  received: undefined,
  responder: undefined,
  installed: false,
};
(globalThis as Record<symbol, unknown>)[STATE_KEY] = state;

function onSignal(signal: InterruptSignal): void {
  const repeated = state.received !== undefined;
  state.received ??= signal;
  state.responder?.(signal, repeated);
}

/** Installs the SIGINT/SIGTERM handlers when the command (the CLI's arguments) answers them. */
export function installInterrupts(args: readonly string[]): void {
  const [command, sub] = args;
  if (command === undefined || !CLAIMING.has(command) || (sub !== undefined && NOT_CLAIMING.has(sub))) return;
  if (state.installed) return;
  state.installed = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * Makes `fn` the answer to an interrupt. A signal that already arrived is handed over at once
 * (synchronously, before this returns).
 */
export function claimInterrupts(fn: Responder): void {
  state.responder = fn;
  if (state.received !== undefined) fn(state.received, false);
}

/** The signal received and never claimed, if any (e.g. during `dispatch --help`). */
export function unclaimedInterrupt(): InterruptSignal | undefined {
  return state.responder === undefined ? state.received : undefined;
}
