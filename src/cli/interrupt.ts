// Ctrl-C (SIGINT) and SIGTERM for the commands that answer them: `dispatch` and the adapters (the
// interrupted verdict), `bench` (no result) and `serve` (drain). main.ts installs the handlers before
// anything else is imported, so a signal at any moment after the entry script starts has a defined
// answer instead of Node's default (the process dies, nothing on stdout). Dependency-free on purpose:
// it loads in microseconds. A signal that arrives before the command has loaded is held and handed
// over when it claims it (within milliseconds: the command only has modules to load).
//
// Other commands (validate, pack, audit, doctor, schema, <adapter> install|uninstall, daemon) keep
// Node's default: the signal ends them at once (the shell reports 130 or 143).

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal number: what a shell reports for a process a signal ended. */
export const signalExitCode = (signal: InterruptSignal): number => (signal === 'SIGINT' ? 130 : 143);

/** `repeated`: a second (third…) signal, the user insisting: answer now, do not wait for cleanup. */
type Responder = (signal: InterruptSignal, repeated: boolean) => void;

/** Commands that answer an interrupt themselves (the CLI's first argument): the adapters too. */
const CLAIMING = new Set([
  'dispatch',
  'bench',
  'serve',
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
]);
/** Their subcommands that do not (the CLI's second argument): `claude-code daemon run` handles its own. */
const NOT_CLAIMING = new Set(['install', 'uninstall', 'daemon']);

let received: InterruptSignal | undefined;
let responder: Responder | undefined;

function onSignal(signal: InterruptSignal): void {
  const repeated = received !== undefined;
  received ??= signal;
  responder?.(signal, repeated);
}

/** Installs the SIGINT/SIGTERM handlers when the command (the CLI's arguments) answers them. */
export function installInterrupts(args: readonly string[]): void {
  const [command, sub] = args;
  if (command === undefined || !CLAIMING.has(command) || (sub !== undefined && NOT_CLAIMING.has(sub))) return;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * Makes `fn` the answer to an interrupt. A signal that already arrived is handed over at once
 * (synchronously, before this returns).
 */
export function claimInterrupts(fn: Responder): void {
  responder = fn;
  if (received !== undefined) fn(received, false);
}

/** The signal received and never claimed, if any (e.g. during `dispatch --help`). */
export function unclaimedInterrupt(): InterruptSignal | undefined {
  return responder === undefined ? received : undefined;
}
